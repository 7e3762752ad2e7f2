//go:build !unix

package permove

import "io/fs"

// pddReadFlags are the flags the referee adds when it opens a file a
// program wrote: none here.
const pddReadFlags = 0

// pddLinkCount reports that the number of hard links is not known here.
func pddLinkCount(fs.FileInfo) (uint64, bool) { return 0, false }
