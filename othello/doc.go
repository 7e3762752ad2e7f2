// Package othello is an Othello (Reversi) rules engine on 64-bit bitboards:
// positions, legal-move generation, a referee [Game] with its [Result], the
// eight board symmetries, and perft in the two counting conventions in use.
//
// # Coordinates
//
// A [Square] is named algebraically, a1 top-left to h8 bottom-right (Edax,
// WTHOR), and is also the TUS OthelloServer's (x, y): x the column from the
// left, y the row from the top, both 0..7, so (4, 2) is e3. Bit x+8y of a
// [Bitboard] stands for that square.
//
// # Start positions
//
// [Standard] is the start of all common Othello software (black d5 e4, white
// d4 e5). [TUS] is its mirror image ([FlipX]), the start of the TUS course
// server. [Board6x6] plays on the 36 squares b2..g7 and exists for perft
// cross-checks. The engine accepts any position built with [NewPosition].
//
// # Moves and passes
//
// A [Move] places a disc on a square, or is [Pass]. A pass is legal only when
// it is forced: the side to move has no placement and the opponent has one.
// [Position.AppendLegalMoves] therefore lists [Pass] alone in that case, and
// nothing once the game is over. [ParseMove] checks syntax only;
// [Position.Play] checks legality.
//
// # Results
//
// The game ends when neither side can move. [Result] carries the raw disc
// counts (empty squares go to nobody), the winner or a draw, and the [Reason]:
// [Discs] for a finished game, a forfeit ([Timeout], [Disconnect],
// [TooManyErrors], [Resign]) that a host records with [Game.Forfeit], or a
// draw the players agreed to ([AgreedDraw], [Game.AgreeDraw]).
//
// # Bots
//
// A bot is a [Player]: given the position with its colour to move, it returns a
// [Move]. [PlayerFunc] makes one of a function. Every Othello protocol accepts
// a Player.
//
// # Perft
//
// [Perft] counts leaves in the strict convention (Edax): a pass is one ply and
// a game that ended early counts 0. [PerftBik] uses Aart Bik's convention, in
// which a finished game counts 1 at every deeper depth. [Divide] splits either
// count by first move, and [ParallelPerft] spreads it over every core. None of
// them allocates.
//
// On amd64 the last three plies of a perft run in assembly that works on
// eight moves at once with AVX-512 (F, DQ, BW, VL, VBMI2 and VPOPCNTDQ), or
// on four with AVX2, when the processor and the operating system support it;
// the choice is made once, at start-up. Elsewhere, and when built with the
// purego tag, perft runs in Go. All give the same counts.
package othello
