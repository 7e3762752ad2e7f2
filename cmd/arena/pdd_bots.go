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
// student's strategy would be; "best" is the strongest, the same as
// alphabeta.
func pddBotNames() []string { return []string{"random", "greedy", "alphabeta", "mcts", "best"} }

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
	case "alphabeta", "best":
		// search.PDDBestPlayer, which shares out the strategy runner's
		// Status (its budget) by itself; to pddBestDepth under -time none.
		o := search.DepthOptions{}
		if ctl.Unlimited() {
			o.Depth = pddBestDepth
		}
		k := &keeper{ctl: ctl, told: true}
		p := search.PDDBestPlayer(o)
		return pdd.PlayerFunc(func(ctx context.Context, pos pdd.Position) (pdd.Move, error) {
			return p.Play(k.searchContext(ctx), pos)
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

// pddBestDepth is the depth of the best (and alphabeta) bot's search
// under a control with no limit (-time none), so that games replay from
// the seed; under a limit it deepens until the time is up.
const pddBestDepth = 2

// pddMaxMovesPerSide bounds the moves of one side in a game (67 actions in
// the course profile, fewer in the official one), for a built-in planning
// its time under a game clock.
const pddMaxMovesPerSide = 34

// pddGreedyMove plays the move whose position scores best for the side to
// move by search.PDDValue, looking one ply ahead; ties are broken at random. It
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
		v := search.PDDValue(q, me) - search.PDDValue(q, me.Opponent())/2 + rng.Float64()
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best, nil
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
