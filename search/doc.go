// Package search is game-independent search over one generic game
// interface, with adapters for the four games of botarena: the toolkit a bot
// author imports with the rules and the protocols.
//
// # The game interface
//
// [Game] is the rules of a two-player zero-sum game as search sees them: a
// state S copied as a value, moves M appended into the caller's slice, Play,
// the terminal test, the result for a player, the side to move. Chance (the
// piece a dark chess flip reveals) is a [ChanceGame]: a chance node is a
// state whose ToMove is [Chance], whose moves are the outcomes, each with its
// probability, with a sampler for playouts. Hidden information (Geister's
// colours) is a [Determinizer]: a player's view sampled into a full state.
//
// The adapters [Othello], [Geister], [DarkChess] and [PDD] call the rules
// packages' hot paths; the rules packages import nothing of this one. The
// algorithms take the adapter as a type parameter (inferred from the value:
// search.NewMCTS(search.Othello{}, opts)), so nothing is boxed and nothing
// allocates on the hot path.
//
// # Algorithms
//
// [MCTS] is Monte Carlo tree search with UCT selection, chance nodes, a
// pluggable playout [Policy] (uniform random by default), tree reuse from one
// move to the next, and root parallelism over Options.Workers goroutines.
// [ISMCTS] is single-observer information-set MCTS from a player's view, one
// determinization per iteration. Both stop at the context's deadline or
// after Options.Playouts playouts, and with a playout budget the same
// Options.Seed gives the same search, whatever the number of workers.
//
// Playouts run at the speed of the rules packages' own playout loops and
// allocate nothing once a search has warmed up (see the benchmarks and
// TestPlayoutAllocs).
//
// # Players
//
// [OthelloPlayer], [GeisterPlayer], [DarkChessPlayer] and [PDDPlayer] make a
// search a game's Player, which every protocol package of the game accepts:
// each move is searched until the playout budget is spent or shortly before
// the deadline of the context the protocol gives ([MaxMargin]).
//
//	bot := search.OthelloPlayer(search.Options{Workers: 2})
//	outcome, err := tus.Dial(ctx, "localhost:25033", bot)
//
// Dark chess is searched over the view's position with a chance node per
// flip: the view hides only the deal, so this is already information-set
// search. Geister is searched by [ISMCTS].
package search
