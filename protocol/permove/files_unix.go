//go:build unix

package permove

import (
	"io/fs"
	"syscall"
)

// pddReadFlags are the flags the referee adds when it opens a file a
// program wrote: O_NONBLOCK, so that opening a named pipe put there in a
// race returns at once instead of waiting for a writer.
const pddReadFlags = syscall.O_NONBLOCK

// pddLinkCount returns the number of hard links of the file fi describes.
func pddLinkCount(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
