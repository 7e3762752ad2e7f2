// Package fsguard says in words what a program left where a host expected
// its own file or directory (a symlink and where it leads, a named pipe, a
// device), for the errors that name a program's violation; and it reads a
// file a host is told to read without waiting on it and within a bound.
package fsguard

import (
	"io/fs"
	"os"
)

// Kind names the kind of file of mode m: "directory", "regular file",
// "symlink", "named pipe", "socket", "character device", "block device",
// or "file of type ..." for any other.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "file of type " + m.Type().String()
}

// Describe says what is at path, not following a symlink there: "nothing",
// "a symlink to /etc/passwd", "a named pipe", "a directory", ...
func Describe(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "nothing"
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err := os.Readlink(path); err == nil {
			return "a symlink to " + target
		}
	}
	return "a " + Kind(fi.Mode())
}

// DescribeIn says what the entry name of mode m in root is, as Describe
// does for a path.
func DescribeIn(root *os.Root, name string, m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		if target, err := root.Readlink(name); err == nil {
			return "a symlink to " + target
		}
	}
	return "a " + Kind(m)
}

// Replaced says what is at path in place of a directory a host opened
// there and found gone: as Describe, but "another directory" for a
// directory.
func Replaced(path string) string {
	if d := Describe(path); d != "a directory" {
		return d
	}
	return "another directory"
}
