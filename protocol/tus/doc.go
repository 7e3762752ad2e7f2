// Package tus speaks the protocol of the TUS OthelloServer (Tokyo
// University of Science's Othello course server), both
// sides.
//
// The codec is [ParseCommand]/[AppendCommand] for the lines a client sends
// (NICK, PUT, SAY, BOARD, CLOSE) and [ParseEvent]/[AppendEvent] for the
// lines the server sends (START, TURN, BOARD, END, CLOSE, SAY, ERROR);
// [ParseEnd] reads an END line's result. [Dial] connects an
// [othello.Player] to a server and plays one game; [Client] is the same with
// its options (nick, move time). The server tells nothing of time, so the
// [timer.Status] on the player's ctx carries the client's MoveTime as a
// per-move cap not told by the server (no limit without it) and no clocks.
// [Host] is a server that the course's
// clients can use unchanged: it pairs connections ([Pairing]), plays their
// games with the server's clock, and records each game ([GameRecord]).
// Readers are lenient about a CR before the LF and trailing blanks; a line
// longer than [MaxLine] is an error ([LineError]).
package tus
