// Package readmode speaks dark chess read mode: the
// host runs the engine program once per ply in a directory, with the
// position in [BoardFile] (board.txt), and reads its ply from [MoveFile]
// (move.txt).
//
// [Program] is the host side, a protocol.DarkChessSeat that a
// protocol.DarkChessReferee plays against any other seat; [Run] is the bot
// side, which makes a [darkchess.Player] a read-mode program ([Client] is
// the same with its options).
package readmode
