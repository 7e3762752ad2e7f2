// Package session runs the client side of a line or frame protocol session:
// a reader goroutine feeding a game loop, a player that may still be
// thinking when the game ends, and a connection to close or interrupt when
// the loop returns or the context is cancelled. The protocol clients
// (protocol/tus, protocol/gat, protocol/cdcsocket) share it.
package session
