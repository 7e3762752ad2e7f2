// Package darkchess is a Chinese dark chess (暗棋, banqi) rules engine on
// 32-bit bitboards: positions with their face-down pieces, legal-move
// generation, a referee [Game] with its [Result], the draw rules of the
// platforms as [Rules] presets, and perft in two counting conventions (see
// doc/darkchess.md in the repository).
//
// # Board and pieces
//
// The board has files a..d and ranks 1..8. A [Square] is 4*(rank-1)+file, a1 =
// 0 to d8 = 31 (the legacy socket protocol's index; the top-first index of the
// manual and the MGTP templates is sq^28), and bit sq of a [Bitboard]. A
// [Piece] is 8*colour + [Kind]: the socket protocol's codes, with the letters
// KGMRNCP (red) and kgmrncp (black), [Hidden] (X) for a face-down piece and
// [NoPiece] (-) for an empty square.
//
// # Plies
//
// A ply is a flip of any face-down piece, a step of a revealed own piece
// N, E, S or W onto an empty square, a step capture by the table of
// [Kind.Takes] (higher or equal rank takes lower or equal, but the king may
// not take a pawn, a pawn takes only a pawn or the king, and a cannon never
// captures by stepping), or a cannon's capture: along its rank or file, over
// exactly one piece of any colour, revealed or face-down, onto the first
// occupied square beyond it, which must be a revealed enemy piece. Face-down
// pieces never move and are never captured. There is no pass.
//
// A [Move] is the choice (b5-b6, or b7-b7 for a flip); a [Ply] is the move as
// played, a flip with the piece it revealed (b7(c)). [ParseMove] and
// [ParsePly] check syntax only; [Position.Play] checks legality.
//
// # Colours, the pool and the deal
//
// The game starts from [Opening]: all 32 pieces face-down and no colours
// ([NoColor]). The first player's first ply is a flip, and it takes the colour
// of the piece it reveals. A [Position] holds the pool, the multiset of the
// face-down pieces that the whole table knows, and, for a referee, the deal:
// the real piece under every face-down square. A flip is a chance event: the
// referee ([NewGame]) draws the deal from the seeded math/rand/v2 source it is
// given ([Position.Deal]), and every flip it plays reveals the
// deal's piece and is recorded with it, so a game replays from its record. A
// [View], what a player sees, is the position without the deal; it plays
// flips as plies that name their piece. Generating moves never needs the
// deal.
//
// # End of game
//
// After every ply the [Game] applies, in this order: the opponent has no
// pieces left, face-down ones included ([NoPieces], even if a flip were
// possible), the opponent has no legal ply ([NoLegalPly]); both are the
// records' "NoMove". Then the repetition draw ([PositionRepetitionDraw]) and
// the no-capture-no-flip draw ([NoEatFlipDraw]), whose parameters are the
// [Rules]: [NTU2021] (the default, [DefaultRules]), [Classic] (the seed
// manual) and [ICGA]. A host records faults with [Game.Forfeit] ([TimeOut],
// [BadMove], [Resign]), and a draw two persons agreed with
// [Game.AgreeDraw] ([AgreedDraw]).
//
// # Bots
//
// A bot is a [Player]: given its [View] (the face-down pieces hidden), it
// returns a [Move]. [PlayerFunc] makes one of a function. Every dark chess
// engine interface accepts a Player.
//
// # Perft
//
// [Perft] counts on a referee position, a flip being one move that reveals
// the deal's piece; [PerftChance] counts on a view, a flip branching once per
// distinct face-down piece; [PerftExpected] is the chance-weighted count, the
// expected Perft over the possible deals. [Divide] and [DivideChance] split
// them by first ply. None of them allocates.
package darkchess
