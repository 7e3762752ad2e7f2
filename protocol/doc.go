// Package protocol speaks the platforms' wire protocols, both sides: codecs
// (typed messages and their exact bytes), clients that connect a bot to a
// server, and hosts that referee games between connected programs.
//
// # Othello: the TUS OthelloServer protocol
//
// The codec is [ParseTUSCommand]/[AppendTUSCommand] for the lines a client
// sends and [ParseTUSEvent]/[AppendTUSEvent] for the lines the server sends.
// [DialOthello] connects an [OthelloPlayer] to a server and plays one game;
// [OthelloHost] is a server that the course's clients can use unchanged.
//
// Every blocking call takes a context.Context. Logging goes to the
// *slog.Logger the caller gives (nil discards it).
package protocol
