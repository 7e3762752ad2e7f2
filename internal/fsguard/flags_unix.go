//go:build unix

package fsguard

import "syscall"

// NoWait is the open flag that keeps the open of a named pipe from waiting
// for a writer (O_NONBLOCK); it changes nothing for a regular file.
const NoWait = syscall.O_NONBLOCK

// NoFollow is the open flag that refuses a symbolic link in the last
// element of the path (O_NOFOLLOW).
const NoFollow = syscall.O_NOFOLLOW
