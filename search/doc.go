// Package search is game-independent search over one generic game
// interface, with adapters for the four games of botarena.
//
// # The game interface
//
// [Game] is the rules of a two-player zero-sum game as search sees them: a
// state S copied as a value, moves M appended into the caller's slice, Play,
// the terminal test, the result for a player, the side to move. Chance (the
// piece a dark chess flip reveals) is a [ChanceGame]: chance nodes with
// outcomes and their probabilities, and a sampler for playouts. Hidden
// information (Geister colours) is a [Determinizer]: a player's view sampled
// into a full state.
//
// The adapters [Othello], [Geister], [DarkChess] and [PDD] call the rules
// packages' hot paths; the rules packages import nothing of this one. The
// algorithms take the adapter as a type parameter, so calls are made on the
// concrete type and nothing is boxed.
package search
