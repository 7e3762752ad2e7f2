package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// runDir is a run's directory (-out), held open as an os.Root from the
// moment arena makes or opens it. arena's own files in it (run.json,
// results.tsv, results.txt, each game's directory and result.txt) are
// written through that root, so that a program that moves the run's
// directory away, or puts a symlink in its place, does not take arena's
// writes outside it: they stay in the directory opened. Before and after
// each game arena checks that the path still leads to that directory
// (check); when it does not, the run stops with an error saying so.
type runDir struct {
	path string      // -out, as given
	root *os.Root    // the directory
	info fs.FileInfo // the directory as opened, to recognise it
}

// openRunDir opens the run's directory path, which exists.
func openRunDir(path string) (*runDir, error) {
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	info, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	return &runDir{path: path, root: root, info: info}, nil
}

// Close closes the root.
func (d *runDir) Close() error {
	return d.root.Close()
}

// check returns nil if d's path still leads to the directory opened, and
// otherwise an error saying what is there now: a program moved the run's
// directory or put something in its place.
func (d *runDir) check() error {
	fi, err := os.Stat(d.path)
	if err == nil && os.SameFile(fi, d.info) {
		return nil
	}
	what := "another directory"
	if lfi, lerr := os.Lstat(d.path); lerr != nil {
		what = "nothing"
	} else if lfi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(d.path)
		what = "a symlink to " + target
	} else if !lfi.IsDir() {
		what = "a " + lfi.Mode().Type().String() + " file"
	}
	return fmt.Errorf("%w: %s now holds %s; arena's files stay in the directory it opened, and no further game is played", errRunDirSwapped, d.path, what)
}

// errRunDirSwapped is the error of a run whose directory was moved or
// replaced while it played.
var errRunDirSwapped = errors.New("the run's directory was moved or replaced during the run")

// writeRunRecordIn writes run.json into root, as writeRunRecord does into
// a directory named by its path.
func writeRunRecordIn(root *os.Root, rec *runRecord) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return writeInRoot(root, runFileName, append(b, '\n'))
}
