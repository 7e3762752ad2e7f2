// Package pdd is a Ponte del Diavolo rules engine on two-word bitboards:
// positions, legal-move generation, a referee [Game] with its [Result],
// scoring, the eight board symmetries, and perft.
//
// # Board and coordinates
//
// The board has 10x10 squares. A [Square] is 10*y+x for column x (0..9 from
// the left) and row y (0..9 from the top), written "x,y" as the course
// platform's stepLog.txt writes points; [Color] uses the digits of chess.txt
// (1 [White], 2 [Black]). A [Bitboard] holds square i in bit i%64 of word
// i/64.
//
// # Rules
//
// On a turn a side plays one action: Chess puts 2 own tiles on free squares
// (empty and not under a bridge); Bridge joins 2 own tiles at one of the 8
// bridge offsets (2 straight, 2 diagonal, or a knight's move), the squares
// under it becoming unusable; Change, on Black's first turn only, takes White's
// 2 opening tiles (the pie rule). Orthogonally connected own tiles form a
// group of at most 4; a group of 4, an island, touches no other own tile,
// even diagonally; a tile carries one bridge; bridges never cross.
//
// Two profiles, [Rules]: [Course] (the default, the course platform of the
// seed) with unlimited supplies, bridges that may not share a square under
// them, and skipped turns (a side without a legal move has a forced [Pass];
// the game ends when neither side can move); and [Official] (the printed
// game) with 40 tiles per colour and 15 bridges, parallel knight bridges that
// may share a square, and a voluntary [Pass] without a legal placement, which
// ends the game (after one last turn of the second player when the first
// passes).
//
// # Moves and errors
//
// A [Move] is a 16-bit value, written as stepLog.txt writes actions:
// "Chess_2,0_2,2", "Bridge_2,0_2,2", "Change", "Pass". [ParseMove] checks
// syntax only; [Position.Play] checks legality and refuses a move with a
// [*MoveError] wrapping one sentinel per row of the course platform's
// violation table (表一) ([ErrOccupied], [ErrUnderBridge], [ErrIslandTouches],
// [ErrGroupTooLarge], [ErrBridgeBlocked], [ErrBridgeEnds], [ErrBridgeNotOwn],
// [ErrUnknownAction], [ErrBridgeShape]) plus [ErrBridgeCrossing] and
// [ErrSupply], reporting the first rule broken in a fixed order.
// [Position.AppendLegalMoves] lists the legal moves in canonical order
// without allocating, and [Position.PlayUnchecked] applies one on the hot
// path.
//
// # Text
//
// Every type has one canonical String, with MarshalText, UnmarshalText and
// AppendText where it reads back: a [Square] is "x,y", a [Move] is its
// stepLog action, [Rules] are "course" or "official", and a [Position] is a
// one-line string ([Position.String], [ParsePosition]): 10 rows of 10 cells
// joined by '/', the side to move, the profile, then the bridges in build
// order and the opening and end flags that are set:
//
//	..W......./........../..W......./.......... (...) B course bridges=2,0-2,2
//
// Readers are lenient where the doc comment says so; writers write one form.
// [Position.Diagram] draws a position for people. The platform's files
// (chess.txt, bridge.txt, stepLog.txt) are package record's business: it
// builds positions with [Setup] and [NewPosition].
//
// # Scores and results
//
// A network is a set of own groups joined by own bridges; a network of n
// islands scores n(n+1)/2. [Position.Score] gives points, islands and
// bridges; more points win, then more islands, then more bridges, else the
// game is drawn ([Position.Outcome]). [Game] is the referee: it plays checked
// moves, ends the game by the profile's rule, and records a [Violation] with
// [Game.Forfeit], a resignation with [Game.Resign] and an agreed draw with
// [Game.AgreeDraw] (which the platform's files have no place for).
//
// # Bots
//
// A bot is a [Player]: given the position with its colour to move, it returns a
// [Move]. [PlayerFunc] makes one of a function. Every PDD protocol accepts a
// Player.
//
// # Perft
//
// [Perft] counts leaves, every listed move (a forced Pass and Change
// included) being one ply and a finished game counting 0 below it; the last
// ply is counted, not played. From the start there are 4,950 moves, after any
// opening 4,754 (4,753 pairs and Change), and perft(2) is 23,532,300.
// [Divide] splits a count by first move.
package pdd
