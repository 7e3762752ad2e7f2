// Package geister is a Geister rules engine on 6x6 bitboards: positions, the
// 70 red-ghost setups per side, legal-move generation, what each player may
// see ([View]) and positions sampled from it ([Determinize]), a referee
// [Game] with its [Result] under the GAT (Java server) and NTPU [Rules], and
// perft. The rules, coordinates and strings are those of the Java geister
// server and the NTPU platform.
//
// # Coordinates and frames
//
// A [Square] is (x, y), x the column and y the row, both 0..5 from the
// top-left corner, written "xy" as in the board strings ("14"); bit 6*y+x of
// a [Bitboard] stands for it. Each player sees the board in its own frame: its
// ghosts start on rows 4 and 5 and move North toward row 0. The two frames
// differ by a half turn ([Square.Rotate]). A [Position] uses the first
// player's frame for every square; a [View] uses its viewer's frame. A [Move]
// is a ghost and a direction in the mover's own frame, so "A,NORTH" is the
// same value from either player and needs no conversion.
//
// # Setups
//
// Before play each player secretly picks four red ghosts among A-H; the other
// four are blue. The 70 choices ([Reds]) are numbered 0..69 in lexicographic
// order of their letters: [RedsAt](0) is ABCD, [RedsAt](69) is EFGH. [Start]
// builds the start position from both players' choices.
//
// # Moves and escapes
//
// A ghost steps one square North, East, West or South, onto an empty square
// or an opponent ghost, which it captures. A blue ghost on one of the mover's
// exits, (0,0) and (5,0) in its own frame, may instead leave the board: the
// escape, which wins at once. The escape is its own move, written sideways
// (West from (0,0), East from (5,0)); [Position.Play] also accepts North for
// it, as the Java server does, and [Position.Normalize] turns that spelling
// into the sideways one. [ParseMove] checks syntax only; [Position.Play]
// checks legality.
//
// # Results
//
// After every move the board is judged in the Java server's order: a side
// whose ghost escaped wins ([ChessEscape]); a side that lost its four blue
// ghosts loses ([NoBlueGhost]); a side that lost its four red ghosts wins
// ([NoRedGhost]). A game that reaches the rules' ply limit undecided is drawn
// ([GamePlyLimitDraw]). A referee records the other endings with
// [Game.Forfeit] ([TimeOut], [Disconnect], [Resign]) or [Game.Reject]
// ([IllegalMove], under the [Lose] policy).
//
// # Hidden information
//
// A [Position] is the referee's state: it knows both sides' colours. A bot
// only ever receives a [View] ([Position.View], or [ParseView] of its MOV?
// board), which holds its own colours and the colours of ghosts that have left
// the board, never those of opponent ghosts still on it. [Determinize]
// samples a full position consistent with a view, for search.
//
// # Bots
//
// A bot is a [Player]: Setup chooses its red ghosts, Play a move from its
// [View]. [PlayerFunc] makes one of a move function, with a random red set. A
// View answers what a bot asks of a move without guessing colours:
// [View.Target], [View.IsEscape], [View.Captures]. Every Geister protocol
// accepts a Player.
//
// # Perft
//
// [Perft] counts the leaves of the legal-move tree; a move that ends the game
// is a leaf, counted once. [Divide] splits the count by first move. Neither
// allocates.
package geister
