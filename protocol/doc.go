// Package protocol is the home of the platforms' wire protocols, one package
// each, named after the protocol, never after a game:
//
//   - [github.com/botarena/botarena/protocol/tus]: the TUS OthelloServer
//     (Othello): codec, client ([tus.Dial]) and server ([tus.Host]);
//   - [github.com/botarena/botarena/protocol/gat]: the Java geister server
//     (Geister): codec, client ([gat.Dial]), server ([gat.Host]) and its
//     WebSocket viewer stream ([gat.Viewer]);
//   - [github.com/botarena/botarena/protocol/ntpu]: the NTPU platform's
//     Geister STDIO and TCP modes ([ntpu.ServeSTDIO], [ntpu.Host]);
//   - [github.com/botarena/botarena/protocol/readmode],
//     [github.com/botarena/botarena/protocol/cdcsocket] and
//     [github.com/botarena/botarena/protocol/mgtp]: the three dark chess
//     engine protocols (a program run per ply over files, the legacy
//     2-byte-framed socket, and MGTP over standard input and output);
//   - [github.com/botarena/botarena/protocol/permove]: the PDD per-move
//     program interface (chess.txt, bridge.txt, stepLog.txt).
//
// Every protocol package speaks in the same verbs: Parse…/Append… for its
// codec, Dial, Serve or Run for the bot side (which takes the game's Player:
// [othello.Player], [geister.Player], [darkchess.Player], [pdd.Player]),
// Host, Engine or Referee for the other side, and Err… for its own errors.
// Every blocking call takes a context.Context; hosts enforce the timer
// package's controls, kill a child program together with every process it
// started when its time is up and when its game ends, keep at most 256 KiB
// of its output per game (the start and the end), and never let one peer's
// garbage, silence or disconnect hurt another game. Logging goes to the
// *slog.Logger the caller gives (nil discards it).
//
// # The dark chess referee
//
// Dark chess is the one game with three engine protocols, so its referee
// lives here, where all three can reach it: [DarkChessReferee] plays a game
// between two [DarkChessSeat]s of any protocol ([readmode.Program],
// [cdcsocket.Program], [mgtp.Program], or a Go player through
// [NewDarkChessPlayerSeat]). A seat's fault costs its engine the game: the
// record keeps the platform's reason (TimeOut, MoveError), and
// [DarkChessGameRecord] also says what the engine did ([DarkChessFaultKind]:
// could not start, crashed, timed out, illegal move, disconnected).
package protocol
