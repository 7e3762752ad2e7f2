//go:build unix

package viewer

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestViewerNamedPipe: a named pipe among the records, under a record's
// name, holds neither the index nor its replay page (an open of a named
// pipe with no writer waits for one): the index leaves it out and its
// replay is refused.
func TestViewerNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "othello.txt"), transcript(t), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "board.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, base := realViewer(t, DefaultLimits(), dir)
	code, body := get(t, base+"/")
	if code != http.StatusOK {
		t.Fatalf("index: %d", code)
	}
	if want := ">othello.txt</a>"; !strings.Contains(body, want) {
		t.Errorf("the index lacks %s", want)
	}
	if strings.Contains(body, ">board.txt</a>") {
		t.Errorf("the index lists the named pipe board.txt")
	}
	if code, body := get(t, base+"/replay?file="+url.QueryEscape(fifo)+"&game=darkchess"); code == http.StatusOK {
		t.Errorf("the replay of a named pipe: %d, want a refusal\n%s", code, body)
	}
}
