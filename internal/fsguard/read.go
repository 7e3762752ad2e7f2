package fsguard

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error of [OpenRegular] and [ReadBounded]
// for a file that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// TooBigError is the error of a file over the bound its reader sets.
type TooBigError struct {
	Path string // the file
	What string // its kind, as in "an openings file"
	Max  int64  // its bound, in bytes
}

// Error names the file and the bound.
func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s: over %d bytes, the most read of %s", e.Path, e.Max, e.What)
}

// OpenRegular opens the file at path for reading without waiting (a named
// pipe with no writer does not hold the open) and refuses it unless it is
// a regular file (or a symbolic link to one): a named pipe or a device
// could block the reads or never end. The error names path and what the
// file is.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|NoWait, 0)
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
		return nil, nil, NotRegular(path, st.Mode())
	}
	return f, st, nil
}

// NotRegular is the error of the file at path, of mode m, that is not a
// regular file: it wraps ErrNotRegular and says what the file is.
func NotRegular(path string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w: it is a %s", path, ErrNotRegular, Kind(m))
}

// ReadBounded reads the whole regular file at path (see OpenRegular), of
// at most max bytes; past them it fails with a [*TooBigError] whose What
// is what ("an openings file").
func ReadBounded(path, what string, max int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &TooBigError{Path: path, What: what, Max: max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooBigError{Path: path, What: what, Max: max}
	}
	return data, nil
}
