package protocol

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/botarena/botarena/record"
)

// writeFileAtomic replaces the file at path with data: a temporary file in
// the same directory, synced, then renamed over path, with the mode path had
// (perm if it did not exist). If the temporary file cannot be made or
// renamed, it rewrites path in place. Whatever is at path that is not a
// regular file (a symlink, a directory a program put there) is replaced,
// never followed.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return writeInPlace(path, data, perm)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, perm)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("protocol: writing %s: %w", path, werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.IsDir() {
			// A directory where the file belongs: clear it and try again.
			if os.RemoveAll(path) == nil && os.Rename(tmp, path) == nil {
				return nil
			}
		}
		os.Remove(tmp)
		return writeInPlace(path, data, perm)
	}
	return nil
}

// writeInPlace rewrites path, replacing a symlink rather than following it.
func writeInPlace(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("protocol: writing %s: %w", path, err)
		}
	}
	if err := os.WriteFile(path, data, perm); err != nil {
		return fmt.Errorf("protocol: writing %s: %w", path, err)
	}
	return nil
}

// ensureDir makes path a directory of its own: whatever a program put there
// instead (a file, or a symlink that could lead the referee's writes out of
// the game directory) is removed first.
func ensureDir(path string) error {
	if fi, err := os.Lstat(path); err == nil && !fi.IsDir() {
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("protocol: %w", err)
		}
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return fmt.Errorf("protocol: %w", err)
	}
	return nil
}

// errNotRegular is a file that is a symlink, a directory or a device.
var errNotRegular = errors.New("not a regular file")

// readRegularFile reads the regular file at path, without following a
// symlink, up to record.PDDMaxFileSize bytes. It returns what it read (at
// most one byte over the limit) and an error for a missing file, one that is
// not regular, or one over the limit.
func readRegularFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", filepath.Base(path), errNotRegular, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), errNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, record.PDDMaxFileSize+1))
	if err != nil {
		return data, err
	}
	if len(data) > record.PDDMaxFileSize {
		return data, fmt.Errorf("%s: larger than %d bytes", filepath.Base(path), record.PDDMaxFileSize)
	}
	return data, nil
}
