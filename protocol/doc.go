// Package protocol speaks the platforms' wire protocols, both sides: codecs
// (typed messages and their exact bytes, pure functions), clients that connect
// a bot to a platform, and hosts that referee games between connected
// programs. MGTP, the dark chess engine protocol, lives in the sub-package
// protocol/mgtp.
//
// A bot is one small interface per game with a func adapter, in the net/http
// handler style ([OthelloPlayer], [GeisterPlayer], [DarkChessPlayer],
// [PDDPlayer]); connecting it is one call. Every blocking call takes a
// context.Context, hosts enforce the timer package's controls, kill a child
// program together with every process it started (on Linux also those that
// left its process group) when its time is up and when its game ends, keep
// at most 256 KiB of its output per game (the start and the end), and
// never let one peer's garbage, silence or disconnect hurt another game.
// Logging goes to the *slog.Logger the caller gives (nil discards it).
//
// # Othello: the TUS OthelloServer protocol
//
// The codec is [ParseTUSCommand]/[AppendTUSCommand] for the lines a client
// sends and [ParseTUSEvent]/[AppendTUSEvent] for the lines the server sends.
// [DialOthello] connects an [OthelloPlayer] to a server and plays one game;
// [OthelloHost] is a server that the course's clients can use unchanged.
//
// # Geister: the Java geister server and the NTPU platform
//
// The Java server's lines are [ParseGeisterCommand], [ParseGeisterEvent] and
// the 48-character [GeisterBoard]. [DialGeister] plays one game for a
// [GeisterPlayer]; [GeisterHost] is a server for the Java server's clients
// (ports 10000 and 10001) without its defects, with a [GeisterViewer]
// WebSocket stream (which, unlike the Java server's, hides the colours of
// the ghosts on the board until the game ends, and refuses the pages of
// other sites). [ServeGeisterSTDIO] makes a GeisterPlayer an NTPU STDIO
// program, and [GeisterNTPUHost] runs NTPU programs in STDIO or TCP mode.
//
// # Chinese dark chess: read mode and the legacy socket protocol
//
// [DarkChessReferee] plays a game between two [DarkChessSeat]s of any
// protocol. [DarkChessReadModeEngine] runs a read-mode program once per ply
// (board.txt in, move.txt out) and [RunDarkChessReadMode] is the bot side.
// The legacy socket protocol's 2-byte framed messages are
// [ParseDarkChessMessage]/[AppendDarkChessMessage]; [DarkChessLegacyEngine]
// starts a `search 127.0.0.1 <port>` program and [DialDarkChessLegacy] is the
// bot side, with the conveniences of the platform's C++ API. A seat's
// fault costs its engine the game: the record keeps the platform's reason
// (TimeOut, MoveError), and [DarkChessGameRecord] also says what the engine
// did ([DarkChessFaultKind]: could not start, crashed, timed out, ...).
//
// # Ponte del Diavolo: the per-move program interface
//
// [PDDReferee] runs `prog <W|B> <Y|N> chess bridge stepLog` once per move,
// infers the action from the files ([InferPDDMove]) and never trusts them:
// it reads and writes the game directory only through an os.Root opened when
// the game starts, so no symlink a program plants leads it out;
// [RunPDDStrategy] makes a [PDDPlayer] such a program in a few lines.
package protocol
