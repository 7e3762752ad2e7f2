package search

import "math/rand/v2"

// Chance is what [Game.ToMove] returns at a chance node: a state where no
// player chooses, but chance draws one of the outcomes of
// [ChanceGame.AppendOutcomes] (the piece a dark chess flip reveals).
const Chance = -1

// Game is the rules of a two-player zero-sum game as search sees them: a
// state S, copied as a value, and moves M, small comparable values. The
// players are numbered 0 and 1.
//
// Implementations are adapters: a value type, usually of zero size or a few
// parameters, whose methods call the rules package's hot paths ([Othello],
// [Geister], [DarkChess], [PDD]). The search algorithms take the adapter as
// a type parameter, so every call is made on the concrete type: nothing is
// boxed in an interface and nothing allocates on the hot path.
//
// The methods must agree with one another:
//   - AppendMoves appends nothing exactly when IsTerminal is true;
//   - Play is called only with a move AppendMoves listed for that state;
//   - Result is called only on terminal states, and is zero-sum:
//     Result(s, 0) == -Result(s, 1).
type Game[S any, M comparable] interface {
	// ToMove returns the player to move in s, 0 or 1, or [Chance] at a
	// chance node. It is meaningless in a terminal state.
	ToMove(s S) int
	// AppendMoves appends the legal moves of the player to move in s to dst
	// and returns the result; at a chance node, the moves of the outcomes
	// (in the order of [ChanceGame.AppendOutcomes]); nothing in a terminal
	// state. It must not allocate when dst has room.
	AppendMoves(s S, dst []M) []M
	// Play returns the state after m, which AppendMoves listed for s.
	Play(s S, m M) S
	// IsTerminal reports whether the game is over in s.
	IsTerminal(s S) bool
	// Result returns the payoff of the terminal state s for player: 1 for a
	// win, -1 for a loss, 0 for a draw (values between are allowed).
	Result(s S, player int) float64
}

// Outcome is one outcome of a chance node: the move that applies it and its
// probability.
type Outcome[M comparable] struct {
	Move M
	Prob float64
}

// ChanceGame is a [Game] with chance nodes: states where [Game.ToMove]
// returns [Chance]. A chance node's moves are its outcomes, each with a
// probability; the probabilities of one node sum to 1.
type ChanceGame[S any, M comparable] interface {
	Game[S, M]
	// AppendOutcomes appends the outcomes of the chance node s, with their
	// probabilities, to dst and returns the result. It must not allocate
	// when dst has room.
	AppendOutcomes(s S, dst []Outcome[M]) []Outcome[M]
	// SampleOutcome draws one outcome of the chance node s with its
	// probability, using r.
	SampleOutcome(s S, r *rand.Rand) M
}

// Determinizer is a game with hidden information: a player's view V (its
// information set) can be sampled into a full state S consistent with it.
// Information-set search ([NewISMCTS]) draws one determinization per
// iteration.
type Determinizer[V, S any] interface {
	// Determinize returns a state consistent with v, the hidden part drawn
	// from r with the probabilities the view leaves (uniform over the
	// consistent states when nothing else is known).
	Determinize(v V, r *rand.Rand) S
}

// InfoSetGame is a [Game] played from views: what information-set search
// needs.
type InfoSetGame[V, S any, M comparable] interface {
	Game[S, M]
	Determinizer[V, S]
}
