//go:build !unix

package main

// openNoWait is 0 where opens do not wait on a named pipe's writer.
const openNoWait = 0

// openNoFollow is 0 where opens have no such flag.
const openNoFollow = 0
