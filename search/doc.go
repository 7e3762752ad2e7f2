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
// # Monte Carlo tree search
//
// [MCTS] is Monte Carlo tree search with UCT selection, chance nodes, a
// pluggable playout [Policy] (uniform random by default), playouts cut off
// after Options.PlayoutDepth plies and scored by an [Eval] when one is set
// (played to the end by default), tree reuse from one move to the next,
// and root parallelism over Options.Workers goroutines.
// [ISMCTS] is single-observer information-set MCTS from a player's view, one
// determinization per iteration. Both stop at the context's deadline or
// after Options.Playouts playouts, and with a playout budget the same
// Options.Seed gives the same search, whatever the number of workers.
//
// Playouts run at the speed of the rules packages' own playout loops and
// allocate nothing once a search has warmed up (see the benchmarks and
// TestPlayoutAllocs).
//
// # Alpha-beta
//
// [AlphaBeta] is negamax with alpha-beta pruning over a [Game] without
// chance: iterative deepening, each iteration searching the last one's best
// move first, and a transposition table of fixed size
// ([DepthOptions].TableSize) when the game is a [Hasher], its best move
// searched first at every node. The leaves are scored by an [Eval], on the
// scale of [Game.Result]: evaluations lie inside (-1, 1), proven results at
// 1, 0 and -1. When the game is a [Remainer] and few moves are left
// ([DepthOptions].Solve, [DefaultSolve] = 14 empty squares for Othello), it
// solves the state exactly, searching every line to the end. [OthelloEval]
// (corners, mobility, disc parity in the endgame) is an evaluation to start
// from; the [Othello] adapter hashes its positions from their bitboards.
//
// # Learned Othello evaluation
//
// [OthelloPatternEval] is an n-tuple network (package ntuple) of the
// classic Othello patterns ([OthelloPatternConfig]: edges with their
// X-squares, corner blocks, rows, diagonals, under the 8 symmetries, a
// weight set for each stage of the game), trained by self-play with
// TD(λ) ([TrainOthello], which "arena train othello" runs) and embedded in
// the package. [OthelloBestPlayer] searches with it: principal-variation
// alpha-beta with a transposition table, moves ordered by the table and
// the evaluation, and an exact solve of the endgame.
//
// # Expectimax
//
// [Expectimax] is expectiminimax over a [ChanceGame]: alpha-beta at the
// decision nodes, the probability-weighted mean at the chance nodes, pruned
// by Star1 with the bounds -1 and 1 of every value; iterative deepening, a
// flip and the piece it reveals counting as one ply. [DarkChessEval]
// (material, face-down pieces counted from the pool) is an evaluation to
// start from.
//
// Both evaluate a leaf only once it is quiet when the game is a [Quiescer]:
// past the horizon they follow its noisy moves, the captures of
// [DarkChess], up to [DepthOptions].Quiesce plies, the player to move free
// to stand pat on the evaluation (a quiescence search), so that no
// exchange is scored half-way. With the moves ordered ([DarkChess].Ordered),
// it took arena's expecti bot from +164 to about +285 Elo against the
// one-ply greedy bot at 100 ms a move.
//
// Both stop at the context's deadline or after [DepthOptions].Nodes nodes,
// returning the best move of the deepest iteration completed (or of the
// unfinished one, once it has found a better move). They draw nothing at
// random: with a node budget, the same search gives the same result on
// every machine. After a first search has grown their buffers, they
// allocate nothing (see BenchmarkAlphaBeta, BenchmarkExpectimax and
// TestDepthSearchAllocs).
//
// # Players
//
// [OthelloPlayer], [GeisterPlayer], [DarkChessPlayer] and [PDDPlayer] make a
// search a game's Player, which every protocol package of the game accepts.
// Each keeps time by itself, with a [timer.Manager] per game: every move's
// budget comes from the [timer.Status] the protocol puts on the context
// (the control and clocks the platform told), shared among the moves
// still to come. The search stops at the budget's soft target and answers
// by its hard limit with the best move so far, or sooner when the playout
// budget is spent. A context with a deadline and no Status is a caller's
// own budget for the move: the search runs to it, less [MaxMargin] at most
// to send the move. With no time limit at all, it plays the playout
// budget alone. [OthelloAlphaBetaPlayer], [OthelloBestPlayer] and
// [DarkChessExpectimaxPlayer] do the same with the depth-first searches,
// and a node budget. A bot that runs a search itself gets the same
// behaviour from [WithBudget] and a Manager of its own.
//
//	bot := search.OthelloPlayer(search.Options{Workers: 2})
//	outcome, err := tus.Dial(ctx, "localhost:25033", bot)
//
// Dark chess is searched over the view's position with a chance node per
// flip: the view hides only the deal, so this is already information-set
// search. Geister is searched by [ISMCTS]; [GeisterBestPlayer] adds a
// check at the root for the opponent's escapes, and [GeisterRushPlayer]
// is a sparring bot that races a ghost to an exit.
package search
