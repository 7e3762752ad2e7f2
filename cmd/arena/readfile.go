package main

import (
	"io"

	"github.com/botarena/botarena/internal/fsguard"
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

// tooBig is the error of the file at path, of the kind what, over max
// bytes.
func tooBig(path, what string, max int64) error {
	return &fsguard.TooBigError{Path: path, What: what, Max: max}
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
