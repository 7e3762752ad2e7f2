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
// # Dark chess: the engine interfaces
//
// A dark chess bot is a [DarkChessPlayer], whatever reaches it. The legacy
// socket protocol of the 2013-2019 platform (2-byte framing) has its codec
// ([ParseDarkChessMessage], [AppendDarkChessMessage], [ParseDarkChessFrame],
// [AppendDarkChessFrame]), the C++ API's calls ([DarkChessConn]), and a
// client that plays a game for a player ([DialDarkChessLegacy],
// [DialDarkChessLegacyArgs]); read mode has [RunDarkChessReadMode]. MGTP, the 2021 system's stdio protocol, is in
// the sub-package protocol/mgtp, which imports this one (never the other way
// round).
//
// On the platform side, a [DarkChessReferee] plays a game between two
// [DarkChessSeat]s, each an engine of any protocol: a legacy socket program
// ([DarkChessLegacyEngine]), an MGTP program (mgtp.Program), a read-mode
// program ([DarkChessReadModeEngine]), or a Go player
// ([NewDarkChessPlayerSeat]). It enforces the clock,
// and a seat's fault (garbage, silence, a crash, an illegal ply) costs only
// its engine the game.
//
// Every blocking call takes a context.Context. Logging goes to the
// *slog.Logger the caller gives (nil discards it).
package protocol
