package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/botarena/botarena/internal/fsguard"
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
	return fmt.Errorf("%w: %s now holds %s; arena's files stay in the directory it opened, and no further game is played", errRunDirSwapped, d.path, fsguard.Replaced(d.path))
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

// checkGameDir returns nil if the game's directory path still leads to
// the directory made for it (info), and otherwise an error saying what is
// there now.
func checkGameDir(path string, info fs.FileInfo) error {
	fi, err := os.Stat(path)
	if err == nil && os.SameFile(fi, info) {
		return nil
	}
	return fmt.Errorf("the game's directory was moved or replaced during the game: %s now holds %s; arena's files stay in the directory it made, and no further game is played", path, fsguard.Replaced(path))
}

// writeGameFile writes a file of arena's, name, afresh in the game's
// directory: through job.Root when the game is played in a run, so that
// whatever a program left at name, or put at the directory's path, is not
// followed; at job.Dir otherwise.
func writeGameFile(job *gameJob, name string, data []byte) error {
	if job.Root != nil {
		return writeInRoot(job.Root, name, data)
	}
	return os.WriteFile(filepath.Join(job.Dir, name), data, 0o644)
}

// createGameFile creates (or truncates) a file of arena's, name, in the
// game's directory, as writeGameFile writes one.
func createGameFile(job *gameJob, name string) (*os.File, error) {
	if job.Root != nil {
		if err := job.Root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return job.Root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	return os.Create(filepath.Join(job.Dir, name))
}

// mkdirGame makes the directory name in the game's directory, if it is not
// there, as writeGameFile writes a file.
func mkdirGame(job *gameJob, name string) error {
	if job.Root != nil {
		if err := job.Root.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err := job.Root.Lstat(name)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s: not a directory (%s)", filepath.Join(job.Dir, name), fi.Mode().Type())
		}
		return nil
	}
	return os.MkdirAll(filepath.Join(job.Dir, name), 0o755)
}
