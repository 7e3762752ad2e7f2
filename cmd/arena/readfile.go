package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The bounds of the files arena is told to read, each well above what a
// real file of its kind holds. A file past its bound is refused, naming the
// file and the bound, rather than read into memory without end.
const (
	// maxStartFile bounds a -start record: a whole game's record of any of
	// the four games is a few KiB.
	maxStartFile = 4 << 20
	// maxRunFile bounds run.json: its flags and players are a few hundred
	// bytes.
	maxRunFile = 1 << 20
	// maxResultsFile bounds results.tsv: a line is some 200 bytes, so
	// 256 MiB holds a million games with room to spare.
	maxResultsFile = 256 << 20
	// maxGameFile bounds arena's own files in a game's directory
	// (gameFileName, result.txt), a few hundred bytes each.
	maxGameFile = 1 << 20
	// maxCopiedFile bounds a file of a game's directory that arena merge
	// copies: records and capped program logs are far smaller.
	maxCopiedFile = 1 << 30
)

// errNotRegular is the error of a file that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// tooBigError is the error of a file over its bound.
type tooBigError struct {
	Path string // the file
	What string // its kind, as in "an openings file"
	Max  int64  // its bound, in bytes
}

// Error names the file and the bound.
func (e *tooBigError) Error() string {
	return fmt.Sprintf("%s: over %d bytes, the most arena reads of %s", e.Path, e.Max, e.What)
}

// fileKind names what a file that is not a regular file is, for errors.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "a file of an unknown kind"
	}
	return "a regular file"
}

// openRegular opens the file at path for reading without waiting (a FIFO
// with no writer does not hold the open) and refuses it unless it is a
// regular file (or a symbolic link to one): a FIFO or a device could block
// the reads or never end. The error names path and what the file is.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w: it is %s", path, errNotRegular, fileKind(st.Mode()))
	}
	return f, st, nil
}

// readBounded reads the whole regular file at path (see openRegular), of
// at most max bytes; what names the kind of file in the error of a file
// over the bound ("an openings file").
func readBounded(path, what string, max int64) ([]byte, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, tooBig(path, what, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, tooBig(path, what, max)
	}
	return data, nil
}

// tooBig is the error of the file at path, of the kind what, over max
// bytes.
func tooBig(path, what string, max int64) error {
	return &tooBigError{Path: path, What: what, Max: max}
}

// boundedReader reads r, the file at path of the kind what, and fails
// with tooBig's error past max bytes.
type boundedReader struct {
	r    io.Reader
	left int64
	path string
	what string
	max  int64
}

// newBoundedReader reads r, the file at path, up to max bytes.
func newBoundedReader(r io.Reader, path, what string, max int64) *boundedReader {
	return &boundedReader{r: r, left: max, path: path, what: what, max: max}
}

// Read reads from the file; past the bound it returns tooBig's error.
func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a file of exactly max bytes from a longer one.
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n > 0 {
			return 0, tooBig(b.path, b.what, b.max)
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}
