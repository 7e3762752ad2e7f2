// Package record reads and writes the game platforms' record files: the
// transcripts their servers write and the plain formats other programs
// exchange. Names carry the game they belong to (Othello...), since the
// package holds the formats of every game.
//
// Each format has a reader from an [io.Reader] and a writer to an
// [io.Writer]. Readers accept what real files contain (LF or CRLF line ends,
// trailing empty lines, either letter case where the format allows it),
// check every move with the game's rules engine, and report a malformed or
// illegal record with a [*ParseError] giving the line, the column and the
// reason. Lines are bounded by [MaxLineLength], so no input makes a reader
// hold unbounded memory. Writers produce one canonical form, byte for byte.
// A record that reads replays: the reader's result rebuilds every position of
// the game, and whether it is over.
//
// # Othello: the TUS server's -trans transcript
//
// The TUS OthelloServer, run with -trans, writes one file per game:
//
//	B:<black nick>,W:<white nick>
//	<x>,<y>,<color>
//	...
//
// with one line per move in the server's coordinates (x the column from the
// left, y the row from the top, both 0..7; color 1 for black, -1 for white).
// A pass is not written: the same colour on two lines in a row means the
// other side had to pass. [ReadOthelloTranscript] reads a transcript into an
// [OthelloTranscript], with the passes put back in; [WriteOthelloTranscript]
// writes one; [OthelloTransWriter] writes one line at a time, as a live
// server does.
//
// # Othello: the plain move list
//
// The move list of Edax, WZebra and the opening books, such as "f5d6c3d3c4":
// squares a1..h8 concatenated, black first, always relative to the standard
// start position ([othello.Standard]). [ParseOthelloMoveList] and
// [ReadOthelloMoveList] read one into an [othello.Game];
// [AppendOthelloMoveList] and [WriteOthelloMoveList] write one. A game from
// the TUS start, the mirror image of the standard one, is written through
// [othello.FlipX].
//
// Neither format records a pass that ends the record: a game cut short right
// after a forced pass reads back without that pass.
//
// # Geister: the NTPU board.txt and the Java server's game log
//
// [ReadGeisterBoard] and [WriteGeisterBoard] read and write the NTPU
// platform's board.txt, result line included, into a [gat.Board], which
// also starts a game from a chosen ply (the mid-game file).
// [ReadGeisterServerLog] reads the Java geister server's per-game log
// (player=N,..., winner=N) and replays it with the server's rules.
//
// # Chinese dark chess: board.txt and move.txt
//
// [ReadDarkChessBoard] reads every real variant of board.txt (client and
// server files, INITIAL, the 2017 and 2021 result lines, seconds or
// milliseconds, LF or CRLF) into a [DarkChessBoard], which replays through
// darkchess.Game and can start a game mid-way; [WriteDarkChessBoard] writes
// it in one of the [DarkChessProfile]s. [ReadDarkChessMove] and
// [WriteDarkChessMove] handle the read mode's move.txt.
//
// # Ponte del Diavolo: chess.txt, bridge.txt and stepLog.txt
//
// [ReadPDDChess], [ReadPDDBridges] and [ReadPDDStepLog] read the three files
// of the per-move program interface, in [PDDStrict] or [PDDLenient] mode, and
// the matching writers write them byte-exact (LF or CRLF). [PDDPosition]
// builds a position from the files, [ReplayPDDStepLog] replays a stepLog and
// [ReadPDDGame] reads and checks a whole game record.
package record
