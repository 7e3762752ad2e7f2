package permove

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/record"
)

// The names the referee keeps in a game directory besides the three files
// of the interface.
const (
	pddLogsDir      = "logs"        // what the programs printed
	pddViolationDir = "violation"   // the files as a violating program left them
	pddResultFile   = "result.json" // the result, written when the game ends
)

// pddMaxDirEntries bounds how many entries of a game directory (and of its
// logs/) the referee reads when it checks, after each move, what the
// program left there: 1024. A game writes fewer than 150 (two logs per
// action at most); a program that leaves more loses.
const pddMaxDirEntries = 1024

// pddDir is a game directory, opened once as an [os.Root] when the game
// starts. Every file operation of the referee in it goes through that root
// (or through a root of one of its subdirectories), so no symlink and no
// ".." that a program plants can lead the referee out of it, and a program
// that moves the directory or puts a symlink in its place does not take
// the referee's reads and writes along: they stay in the directory opened.
//
// The programs are given the directory's path; after each move the referee
// checks ([pddDir.check]) that the path still leads to the directory and
// that nothing was planted in it, and at the end of the game it puts the
// directory back at its path if a program moved it ([pddDir.restore]).
type pddDir struct {
	path   string      // the absolute path the programs are given
	root   *os.Root    // the game directory
	self   *os.File    // the game directory, open, to put its permissions back
	info   fs.FileInfo // the game directory as opened, to recognise it
	parent *os.Root    // the directory holding it, to put it back if moved
	base   string      // its name in parent

	logs     *os.Root    // logs/, once made
	logsSelf *os.File    // logs/, open
	logsInfo fs.FileInfo // logs/ as made
}

// openPDDDir makes (if needed) and opens the game directory abs, which must
// be empty. Its parent directories are made as the caller's path says,
// symlinks included, but the game directory itself must be a directory of
// its own, not a symlink: the referee cannot tell a symlink the caller put
// there from one a program planted (a leftover process of an earlier game
// knows its sibling directories' names), and would play the game wherever
// it leads.
func openPDDDir(abs string) (*pddDir, error) {
	parentPath, base := filepath.Dir(abs), filepath.Base(abs)
	if base == "." || base == ".." || base == string(filepath.Separator) || parentPath == abs {
		return nil, fmt.Errorf("permove: game directory %s: want a directory below another", abs)
	}
	if err := os.MkdirAll(parentPath, 0o755); err != nil {
		return nil, fmt.Errorf("permove: game directory: %w", err)
	}
	parent, err := os.OpenRoot(parentPath)
	if err != nil {
		return nil, fmt.Errorf("permove: game directory: %w", err)
	}
	d := &pddDir{path: abs, parent: parent, base: base}
	fail := func(err error) (*pddDir, error) {
		d.Close()
		return nil, err
	}
	if err := parent.Mkdir(base, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fail(fmt.Errorf("permove: game directory: %w", err))
	}
	fi, err := parent.Lstat(base)
	switch {
	case err != nil:
		return fail(fmt.Errorf("permove: game directory: %w", err))
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := parent.Readlink(base)
		return fail(fmt.Errorf("permove: game directory %s is a symlink (to %s); give the directory itself", abs, target))
	case !fi.IsDir():
		return fail(fmt.Errorf("permove: game directory %s is not a directory (%s)", abs, fi.Mode().Type()))
	}
	if d.root, err = parent.OpenRoot(base); err != nil {
		return fail(fmt.Errorf("permove: game directory: %w", err))
	}
	if d.info, err = d.root.Stat("."); err != nil {
		return fail(fmt.Errorf("permove: game directory: %w", err))
	}
	if !os.SameFile(fi, d.info) || d.atPath() != nil {
		return fail(fmt.Errorf("permove: game directory %s changed while it was being opened", abs))
	}
	if d.self, err = d.root.Open("."); err != nil {
		return fail(fmt.Errorf("permove: game directory: %w", err))
	}
	entries, err := d.self.ReadDir(1)
	if err != nil && err != io.EOF {
		return fail(fmt.Errorf("permove: game directory: %w", err))
	}
	if len(entries) > 0 {
		return fail(fmt.Errorf("permove: game directory %s is not empty", abs))
	}
	return d, nil
}

// Close closes the roots.
func (d *pddDir) Close() error {
	d.closeLogs()
	if d.self != nil {
		d.self.Close()
	}
	for _, r := range []*os.Root{d.root, d.parent} {
		if r != nil {
			r.Close()
		}
	}
	return nil
}

// pddRestoreMode puts back the permissions directory f had when the
// referee made or opened it (mode), if a program changed them (a game
// directory the referee cannot read or write would end the run), and
// reports the change. what names the directory.
func pddRestoreMode(f *os.File, mode fs.FileMode, what string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if fi.Mode().Perm() == mode.Perm() {
		return nil
	}
	f.Chmod(mode.Perm())
	return fmt.Errorf("the permissions of %s were changed from %v to %v; a program may write chess.txt and bridge.txt only", what, mode.Perm(), fi.Mode().Perm())
}

// atPath returns nil if the game directory's path still leads to the game
// directory, and otherwise says what is there now.
func (d *pddDir) atPath() error {
	fi, err := os.Lstat(d.path)
	switch {
	case err != nil:
		return fmt.Errorf("the game directory %s was moved away (%v)", d.path, errors.Unwrap(err))
	case os.SameFile(fi, d.info):
		return nil
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(d.path)
		return fmt.Errorf("the game directory %s was replaced by a symlink to %s", d.path, target)
	}
	return fmt.Errorf("the game directory %s was replaced by another %s", d.path, fsguard.Kind(fi.Mode()))
}

// pddEntryError is something a program planted in the game directory: a
// symlink, a pipe, a file or directory where the referee keeps its own.
type pddEntryError struct {
	name string // the entry, relative to the game directory
	what string // what it is
}

func (e *pddEntryError) Error() string {
	return "the game directory's " + e.name + " is " + e.what + "; a program may write chess.txt and bridge.txt only"
}

// check looks at what the program that has just run left in the game
// directory, besides chess.txt, bridge.txt and stepLog.txt (which the
// classification reads), and returns the first thing wrong,
// or nil:
//
//   - the permissions of the game directory or of its logs/ changed (they
//     are put back);
//   - the game directory's path no longer leads to it (the directory was
//     moved, or a symlink or another directory put in its place);
//   - a symlink, a named pipe, a socket or a device at the top of the game
//     directory, or anything but a regular file in logs/;
//   - logs/ that is not the directory the referee made, or a violation/ or
//     result.json, which the referee makes only when the game ends;
//   - more than pddMaxDirEntries entries.
//
// It removes what it finds planted (the referee's own logs/ too if it was
// replaced), so that nothing the referee or a later reader of the record
// opens leads out of the directory. Directories a program makes besides
// are not looked into: the referee never reads them.
func (d *pddDir) check() error {
	var first error
	note := func(err error) {
		if first == nil {
			first = err
		}
	}
	if err := pddRestoreMode(d.self, d.info.Mode(), "the game directory"); err != nil {
		note(err)
	}
	if err := d.atPath(); err != nil {
		note(err)
	}
	entries, err := readDirBounded(d.root, ".")
	if err != nil {
		note(fmt.Errorf("the game directory: %w", err))
	}
	for _, e := range entries {
		name, mode := e.Name(), e.Type()
		switch name {
		case record.PDDChessFile, record.PDDBridgeFile, record.PDDStepLogFile:
			continue // a missing or unchanged file is judged later, by the classification
		case pddLogsDir:
			if err := d.checkLogs(); err != nil {
				note(err)
				d.closeLogs()
				d.root.RemoveAll(pddLogsDir)
			}
			continue
		case pddViolationDir, pddResultFile:
			what := fsguard.DescribeIn(d.root, name, mode)
			if mode&fs.ModeSymlink == 0 {
				what += " the referee did not make"
			}
			note(&pddEntryError{name, what})
			d.root.RemoveAll(name)
			continue
		}
		if mode.IsDir() || mode.IsRegular() {
			continue
		}
		note(&pddEntryError{name, fsguard.DescribeIn(d.root, name, mode)})
		d.root.Remove(name)
	}
	if d.logs != nil {
		if _, err := d.root.Lstat(pddLogsDir); errors.Is(err, fs.ErrNotExist) {
			note(&pddEntryError{pddLogsDir, "gone"})
			d.closeLogs()
		}
	}
	return first
}

// checkLogs checks that logs/ is the directory the referee made and holds
// regular files only.
func (d *pddDir) checkLogs() error {
	fi, err := d.root.Lstat(pddLogsDir)
	if err != nil {
		return err
	}
	if d.logs == nil || !os.SameFile(fi, d.logsInfo) {
		what := fsguard.DescribeIn(d.root, pddLogsDir, fi.Mode())
		if fi.Mode()&fs.ModeSymlink == 0 {
			what += " the referee did not make"
		}
		return &pddEntryError{pddLogsDir, what}
	}
	if err := pddRestoreMode(d.logsSelf, d.logsInfo.Mode(), "the game directory's "+pddLogsDir); err != nil {
		return err
	}
	entries, err := readDirBounded(d.logs, ".")
	if err != nil {
		return fmt.Errorf("the game directory's %s: %w", pddLogsDir, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			return &pddEntryError{pddLogsDir + "/" + e.Name(), fsguard.DescribeIn(d.logs, e.Name(), e.Type())}
		}
	}
	return nil
}

func (d *pddDir) closeLogs() {
	if d.logs != nil {
		d.logsSelf.Close()
		d.logs.Close()
		d.logs, d.logsSelf, d.logsInfo = nil, nil, nil
	}
}

// readDirBounded reads the entries of directory name in root, at most
// pddMaxDirEntries of them, sorted by name; more is an error.
func readDirBounded(root *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(pddMaxDirEntries + 1)
	if err != nil && err != io.EOF {
		return entries, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if len(entries) > pddMaxDirEntries {
		return entries[:pddMaxDirEntries], fmt.Errorf("more than %d entries", pddMaxDirEntries)
	}
	return entries, nil
}

// logsRoot returns the root of logs/, making the directory the first time.
func (d *pddDir) logsRoot() (*os.Root, error) {
	if d.logs != nil {
		return d.logs, nil
	}
	r, fi, err := makeSubdir(d.root, pddLogsDir)
	if err != nil {
		return nil, err
	}
	self, err := r.Open(".")
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("permove: %w", err)
	}
	d.logs, d.logsSelf, d.logsInfo = r, self, fi
	return r, nil
}

// makeSubdir makes name a directory of its own in root and opens it:
// whatever is there instead (a file, a symlink) is removed first, never
// followed.
func makeSubdir(root *os.Root, name string) (*os.Root, fs.FileInfo, error) {
	fi, err := root.Lstat(name)
	if err == nil && !fi.IsDir() {
		if err := root.RemoveAll(name); err != nil {
			return nil, nil, fmt.Errorf("permove: %w", err)
		}
	}
	if err := root.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, nil, fmt.Errorf("permove: %w", err)
	}
	if fi, err = root.Lstat(name); err != nil {
		return nil, nil, fmt.Errorf("permove: %w", err)
	}
	if !fi.IsDir() {
		return nil, nil, fmt.Errorf("permove: %s: a %s appeared where the referee made a directory", name, fsguard.Kind(fi.Mode()))
	}
	sub, err := root.OpenRoot(name)
	if err != nil {
		return nil, nil, fmt.Errorf("permove: %w", err)
	}
	if sfi, err := sub.Stat("."); err != nil || !os.SameFile(fi, sfi) {
		sub.Close()
		return nil, nil, fmt.Errorf("permove: %s changed while it was being opened", name)
	}
	return sub, fi, nil
}

// restore puts the game directory back at its path if a program moved it
// and put something else there (a symlink, say), so that the record is
// where the caller looks for it and a caller that writes there by path
// does not follow what the program planted. What is at the path is
// removed; the game directory is renamed back if it is still in the same
// parent; otherwise an empty directory is made at the path and becomes the
// game directory, into which the caller writes the record again. It
// reports whether the game directory is a new one. A directory above the
// game directory that was replaced is not undone (the referee holds no
// root above the parent), and restore then returns an error.
func (d *pddDir) restore() (fresh bool, err error) {
	if d.atPath() == nil {
		return false, nil
	}
	fi, err := d.parent.Lstat(d.base)
	if err == nil && os.SameFile(fi, d.info) {
		return false, fmt.Errorf("permove: game directory %s: a directory above it was moved or replaced", d.path)
	}
	if err == nil {
		if err := d.parent.RemoveAll(d.base); err != nil {
			return false, fmt.Errorf("permove: game directory: %w", err)
		}
	}
	if entries, err := readDirBounded(d.parent, "."); err == nil || len(entries) > 0 {
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if efi, err := d.parent.Lstat(e.Name()); err == nil && os.SameFile(efi, d.info) {
				if err := d.parent.Rename(e.Name(), d.base); err != nil {
					return false, fmt.Errorf("permove: game directory: putting it back: %w", err)
				}
				if d.atPath() != nil {
					return false, fmt.Errorf("permove: game directory %s: a directory above it was moved or replaced", d.path)
				}
				return false, nil
			}
		}
	}
	// Gone from the parent: start a new directory for the record.
	if err := d.parent.Mkdir(d.base, 0o755); err != nil {
		return false, fmt.Errorf("permove: game directory: %w", err)
	}
	root, err := d.parent.OpenRoot(d.base)
	if err != nil {
		return false, fmt.Errorf("permove: game directory: %w", err)
	}
	info, err := root.Stat(".")
	if err != nil {
		root.Close()
		return false, fmt.Errorf("permove: game directory: %w", err)
	}
	self, err := root.Open(".")
	if err != nil {
		root.Close()
		return false, fmt.Errorf("permove: game directory: %w", err)
	}
	d.closeLogs()
	d.self.Close()
	d.root.Close()
	d.root, d.self, d.info = root, self, info
	if d.atPath() != nil {
		return true, fmt.Errorf("permove: game directory %s: a directory above it was moved or replaced", d.path)
	}
	return true, nil
}

// writeFileAtomic replaces the file name in root with data: a new
// temporary file in the same directory (created exclusively, so never
// through a symlink), then renamed over name, with the mode name
// had if it was a regular file (perm otherwise). Whatever is at name (a
// symlink, a hard link to a file elsewhere, a directory a program put
// there) is replaced, never written through.
func writeFileAtomic(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if fi, err := root.Lstat(name); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(name)
	var f *os.File
	var tmp string
	var err error
	for range 8 {
		tmp = dir + "." + base + "." + strconv.FormatUint(rand.Uint64(), 36) + ".tmp"
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("permove: writing %s: %w", name, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	// No fsync: the rename alone keeps a program from reading half a
	// file, which is all a game needs; an fsync waits for the disk, and on
	// a machine busy writing it took hundreds of milliseconds of a move.
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = root.Rename(tmp, name)
		if werr != nil {
			if fi, err := root.Lstat(name); err == nil && fi.IsDir() {
				// A directory where the file belongs: clear it and try again.
				if err := root.RemoveAll(name); err == nil {
					werr = root.Rename(tmp, name)
				}
			}
		}
	}
	if werr != nil {
		root.Remove(tmp)
		return fmt.Errorf("permove: writing %s: %w", name, werr)
	}
	return nil
}

// errNotRegular is a file that is a symlink, a directory or a device.
var errNotRegular = errors.New("not a regular file")

// readRegularFile reads the regular file name in root, without following a
// symlink, up to record.PDDMaxFileSize bytes. It returns what it read (at
// most one byte over the limit) and an error for a missing file, one that
// is not a regular file, one with other hard links (whose content lives
// outside the game directory as well), or one over the limit. The file is
// opened without blocking, so a named pipe put there in a race cannot hold
// the referee.
func readRegularFile(root *os.Root, name string) ([]byte, error) {
	fi, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", name, errNotRegular, fsguard.DescribeIn(root, name, fi.Mode()))
	}
	f, err := root.OpenFile(name, os.O_RDONLY|pddReadFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !ofi.Mode().IsRegular() || !os.SameFile(fi, ofi):
		return nil, fmt.Errorf("%s: %w (it changed while being opened)", name, errNotRegular)
	}
	if n, ok := pddLinkCount(ofi); ok && n > 1 {
		return nil, fmt.Errorf("%s: %w of the game directory alone (%d hard links)", name, errNotRegular, n)
	}
	data, err := io.ReadAll(io.LimitReader(f, record.PDDMaxFileSize+1))
	if err != nil {
		return data, err
	}
	if len(data) > record.PDDMaxFileSize {
		return data, fmt.Errorf("%s: larger than %d bytes", name, record.PDDMaxFileSize)
	}
	return data, nil
}
