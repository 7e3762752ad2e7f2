package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/search"
	"github.com/botarena/botarena/timer"
)

// pddBotNames lists the built-in Ponte del Diavolo players, "random" first.
// Each is written with the public API only (pdd, protocol and search), as a
// student's strategy would be.
func pddBotNames() []string { return []string{"random", "greedy", "alphabeta", "mcts"} }

// newPDDBot returns the built-in player called name. Its choices depend on
// seed and on the turn it plays, so a game between built-ins is the same for
// the same seed (for mcts: under -time none). ctl is the match's time
// control.
func newPDDBot(name string, seed uint64, ctl timer.Control) (pdd.Player, error) {
	// A strategy program plays one move and exits: its randomness is
	// drawn afresh from the seed and the position it moves in.
	rngFor := func(p pdd.Position) *rand.Rand {
		h := fnv.New64a()
		text, _ := p.AppendText(nil)
		h.Write(text)
		return rand.New(rand.NewPCG(seed, h.Sum64()^0x9E3779B97F4A7C15))
	}
	switch name {
	case "random":
		return pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
			moves := p.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return pdd.NoMove, fmt.Errorf("no legal move in %s", p)
			}
			return moves[rngFor(p).IntN(len(moves))], nil
		}), nil
	case "greedy":
		return pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			return pddGreedyMove(ctx, p, rngFor(p))
		}), nil
	case "alphabeta":
		// One move a program: a fresh search for each.
		return pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			o := search.DepthOptions{TableSize: -1, Solve: -1}
			if ctl.Unlimited() {
				o.Depth = pddABDepth
			}
			// The runner's Status (its budget) is shared out by the
			// time manager, as for package search's players.
			k := keeper{ctl: ctl, told: true}
			return keep(&k, ctx, func(ctx context.Context) (pdd.Move, error) {
				res, err := search.NewAlphaBeta(newPDDSelective(ctx, pddBeam), pddABEval, o).Search(ctx, p)
				return res.Move, err
			})
		}), nil
	case "mcts":
		// One move a program: its search dies with it. Its time is the
		// strategy runner's deadline (pddBot's -time).
		return pdd.PlayerFunc(func(ctx context.Context, p pdd.Position) (pdd.Move, error) {
			return search.PDDPlayer(mctsOptions(rngFor(p).Uint64(), ctl, pddMCTSPlayouts)).Play(ctx, p)
		}), nil
	}
	return nil, fmt.Errorf("unknown pdd player %q (built-in players: %s)", name, strings.Join(pddBotNames(), ", "))
}

// pddMaxMovesPerSide bounds the moves of one side in a game (67 actions in
// the course profile, fewer in the official one), for a built-in planning
// its time under a game clock.
const pddMaxMovesPerSide = 34

// pddGreedyMove plays the move whose position scores best for the side to
// move by pddEval, looking one ply ahead; ties are broken at random. It
// answers with the best move so far when ctx ends.
func pddGreedyMove(ctx context.Context, p pdd.Position, rng *rand.Rand) (pdd.Move, error) {
	moves := p.AppendLegalMoves(make([]pdd.Move, 0, pdd.MaxMoves))
	if len(moves) == 0 {
		return pdd.NoMove, fmt.Errorf("no legal move in %s", p)
	}
	me := p.Turn()
	best, bestV := moves[rng.IntN(len(moves))], -1e18
	for i, m := range moves {
		if i%256 == 0 && ctx.Err() != nil {
			break
		}
		q := p.PlayUnchecked(m)
		v := pddEval(q, me) - pddEval(q, me.Opponent())/2 + rng.Float64()
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best, nil
}

// pddEval values position q for colour c: the score (points first, then
// islands and bridges), plus what its groups may still become: a group of 3
// or 2 tiles that can still grow into an island, and bridges between groups
// that are on their way to islands.
func pddEval(q pdd.Position, c pdd.Color) float64 {
	s := q.Score(c)
	v := 100*float64(s.Points) + 30*float64(s.Islands) + 2*float64(s.Bridges)
	var buf [pdd.NumSquares / 2]pddGroupBonus
	for _, g := range pddBonuses(q, c, buf[:0]) {
		v += g.bonus
	}
	return v
}

// pddBonuses appends c's groups in q that earn a bonus in pddEval, with the
// free squares next to them: a group of 3 or 2 tiles that can still grow
// into an island, or of one tile. A group that cannot grow is dead weight.
func pddBonuses(q pdd.Position, c pdd.Color, dst []pddGroupBonus) []pddGroupBonus {
	tiles := q.Tiles(c)
	free := q.Free()
	for rest := tiles; !rest.IsEmpty(); {
		group := tiles.Group(firstSquare(rest))
		rest = rest.Without(group)
		room := group.Neighbors().Intersect(free)
		if room.IsEmpty() {
			continue
		}
		switch group.Count() {
		case 4:
		case 3:
			dst = append(dst, pddGroupBonus{room, 14})
		case 2:
			dst = append(dst, pddGroupBonus{room, 5})
		default:
			dst = append(dst, pddGroupBonus{room, 1})
		}
	}
	return dst
}

// firstSquare returns the lowest square of the non-empty b.
func firstSquare(b pdd.Bitboard) pdd.Square {
	for s := range b.Squares() {
		return s
	}
	return 0
}

// pddBot is "arena bot pdd NAME [-seed N] [-rules course|official] W|B Y|N
// chess.txt bridge.txt stepLog.txt": the built-in player NAME as a strategy
// program of the course platform, playing one move on the files and
// exiting (permove.RunArgs). It returns the exit status: 0 after
// a move, 1 for unreadable files, 2 for a bad invocation or an unknown
// player.
func pddBot(ctx context.Context, name string, args []string, _ io.Reader, _, stderr io.Writer) int {
	prog := "arena bot pdd " + name
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena bot pdd NAME [-seed N] [-rules course|official] W|B Y|N chess.txt bridge.txt stepLog.txt\n\nplayers (built-in): %s\n\nflags:\n", strings.Join(pddBotNames(), ", "))
		fs.PrintDefaults()
	}
	seed := fs.Uint64("seed", 0, "seed of the player's choices (0: a random seed)")
	rulesName := fs.String("rules", "course", "rule profile: course or official")
	timeText := fs.String("time", timer.PDD().String(), "the game's time control, which the player thinks within (shared out by the time manager; a per-move limit less 10 ms for the referee, counted from the program's start); none: mcts searches a fixed number of playouts")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rules, err := pdd.ParseRules(*rulesName)
	if err != nil {
		fmt.Fprintf(stderr, "%s: -rules %q: want course or official\n", prog, *rulesName)
		return 2
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	ctl, err := timer.Parse(*timeText)
	if err != nil {
		fmt.Fprintf(stderr, "%s: -time %q: %v\n", prog, *timeText, err)
		return 2
	}
	player, err := newPDDBot(name, *seed, ctl)
	if err != nil {
		fmt.Fprintf(stderr, "arena bot pdd: %v\n", err)
		return 2
	}
	opts := permove.Options{Rules: rules}
	// The referee's clock runs from the program's start: so does the
	// budget, where main could tell when the program started.
	if start, ok := ctx.Value(programStartKey{}).(time.Time); ok {
		opts.Start = start
	}
	if d, ok := pddBudget(ctl); ok {
		opts.Budget = d
	} else {
		// No limit: the player thinks until it answers (its own playout
		// or depth budget), never cut short into a fallback move.
		opts.NoTimeLimit = true
	}
	return permove.RunArgs(ctx, append([]string{prog}, fs.Args()...), stderr, player, opts)
}
