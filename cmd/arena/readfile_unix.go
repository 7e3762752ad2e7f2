//go:build unix

package main

import "syscall"

// openNoWait is the open flag that keeps the open of a FIFO from waiting
// for a writer (O_NONBLOCK); it changes nothing for a regular file.
const openNoWait = syscall.O_NONBLOCK

// openNoFollow is the open flag that refuses a symbolic link in the last
// element of the path (O_NOFOLLOW).
const openNoFollow = syscall.O_NOFOLLOW
