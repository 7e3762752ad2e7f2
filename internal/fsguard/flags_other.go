//go:build !unix

package fsguard

// NoWait is 0 where opens do not wait on a named pipe's writer.
const NoWait = 0

// NoFollow is 0 where opens have no such flag.
const NoFollow = 0
