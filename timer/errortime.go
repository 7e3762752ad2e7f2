package timer

import "time"

// ErrorTime returns the NTPU client's ErrorTime: half
// the difference between the time the server measured for a ply, server
// (X), and the time the client measured for the same ply, client (Y):
// (X − Y) / 2, truncated towards zero. It is not a network delay but a
// measure of how stable the link is; it is negative when the client
// measured more than the server. It is exact for any two durations (no
// overflow).
func ErrorTime(server, client time.Duration) time.Duration {
	d := server - client
	if (server >= 0) == (client >= 0) || (d >= 0) == (server >= 0) {
		return d / 2 // no overflow
	}
	// server - client overflowed; the true difference is d ± 2^64, and
	// half of it fits.
	if server >= 0 {
		return time.Duration(uint64(d) >> 1)
	}
	return -time.Duration(uint64(-d) >> 1)
}
