package fsguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestDescribe(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	must(os.Mkdir(filepath.Join(dir, "dir"), 0o755))
	must(os.Symlink("/etc/passwd", filepath.Join(dir, "link")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	for name, want := range map[string]string{
		"file":    "a regular file",
		"dir":     "a directory",
		"link":    "a symlink to /etc/passwd",
		"fifo":    "a named pipe",
		"missing": "nothing",
	} {
		if got := Describe(filepath.Join(dir, name)); got != want {
			t.Errorf("Describe(%s) = %q, want %q", name, got, want)
		}
	}
	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	fi, err := root.Lstat("link")
	must(err)
	if got := DescribeIn(root, "link", fi.Mode()); got != "a symlink to /etc/passwd" {
		t.Errorf("DescribeIn(link) = %q", got)
	}
	if got := Replaced(filepath.Join(dir, "dir")); got != "another directory" {
		t.Errorf("Replaced(dir) = %q", got)
	}
	if got := Replaced(filepath.Join(dir, "link")); got != "a symlink to /etc/passwd" {
		t.Errorf("Replaced(link) = %q", got)
	}
	if got := Kind(fs.ModeSocket); got != "socket" {
		t.Errorf("Kind(socket) = %q", got)
	}
	if got := Kind(fs.ModeDevice | fs.ModeCharDevice); got != "character device" {
		t.Errorf("Kind(char device) = %q", got)
	}
}
