package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/ntuple"
)

// TestTrainReproducible: "arena train othello" writes the same weights
// file for the same seed and flags, whatever -j, and tells its progress.
func TestTrainReproducible(t *testing.T) {
	dir := t.TempDir()
	train := func(name, jobs string) []byte {
		var out, errOut bytes.Buffer
		path := filepath.Join(dir, name)
		if err := run(context.Background(), []string{"train", "othello", "-seed", "3", "-games", "130", "-j", jobs, "-out", path}, &out, &errOut); err != nil {
			t.Fatalf("train -j %s: %v\n%s", jobs, err, errOut.String())
		}
		if !strings.Contains(errOut.String(), "130/130 games") || !strings.Contains(errOut.String(), "games/s, ETA") {
			t.Errorf("train -j %s: no progress line on stderr:\n%s", jobs, errOut.String())
		}
		if !strings.Contains(out.String(), "wrote "+path) {
			t.Errorf("train -j %s: stdout %q names no file", jobs, out.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ntuple.Read(bytes.NewReader(b)); err != nil {
			t.Fatalf("train -j %s: the file does not read: %v", jobs, err)
		}
		return b
	}
	a, b := train("a.ntp", "1"), train("b.ntp", "2")
	if !bytes.Equal(a, b) {
		t.Error("-j 1 and -j 2 wrote different weights from the same seed")
	}
	// Nothing is left beside the file but the two files.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d files, want the 2 weights files", len(entries))
	}
}

func TestTrainErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train"}, "name the game"},
		{[]string{"train", "geister"}, "only othello"},
		{[]string{"train", "othello", "-games", "0"}, "-games 0"},
		{[]string{"train", "othello", "-j", "0"}, "-j 0"},
		{[]string{"train", "othello", "extra"}, `unexpected argument "extra"`},
		{[]string{"train", "othello", "-games", "1", "-out", filepath.Join(t.TempDir(), "no", "such", "w.ntp")}, "train othello"},
	} {
		err := run(context.Background(), tc.args, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"help", "train"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "arena train othello [-seed S]") || !strings.Contains(out.String(), "-games") {
		t.Errorf("help train:\n%s", out.String())
	}
}
