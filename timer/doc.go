// Package timer models the time controls of the game platforms botarena
// speaks to, runs the clock of a two-player game under one of them, and
// tells a bot how long to think on each ply.
//
// # Controls
//
// A [Control] is one value for every platform's rule: main time for the
// whole game, a Fischer increment, byo-yomi periods holding one ply
// (ordinary) or several (Canadian), a hard cap on any single ply, and the
// charging, in milliseconds (default) or in whole seconds as the Java
// Geister server does. It has one canonical text form, read by [Parse] and
// written by [Control.String]:
//
//	none             no limit
//	900s             sudden death
//	900s+2s          increment
//	600s+10s/move    byo-yomi: 600 s, then 10 s per ply
//	600s+60s/5       Canadian: 600 s, then 5 plies in every 60 s
//	5s/move          a per-move cap only
//
// See [Parse] for the whole grammar.
//
// # Platforms
//
// Each platform writes its setting its own way; a constructor turns it into
// a Control (see doc/time.md in the repository):
//
//   - NTPU launcher: [NTPU]; the default, Absolute 900 s,
//     is "900s"; Custom T, t, n is "Ts+ts/n" ("Ts+ts/move" for n 0 or 1).
//   - Java Geister server: [JavaGeister]; the defaults
//     --budget=600 --timeout=10 are "600s+10s/move".
//   - Othello course server: [OthelloTimeout]; -timeout 10 is
//     "10s/move", 0 or absent is "none".
//   - Dark chess platform: [DarkChess]; 回合制 900 s is "900s",
//     單手制 900 s is "900s/move".
//   - MGTP (dark chess): [MGTP]; time_setting 900000 is "900s".
//   - ICGA dark chess: [ICGADarkChess], "900s".
//   - PDD course platform: [PDD], "5s/move".
//
// # Clocks
//
// A [Clock] holds a Control and the state of both players. A host calls
// [Clock.Start] when a player's turn begins and [Clock.Stop] when its move
// arrives; Stop returns the ply's elapsed time, and an error wrapping
// [ErrTimeUp] if the ply broke the player's allowance, after which that
// player stays out. [Clock.Deadline] gives the instant the ply in progress
// runs out, for a context.Context on the host's side and for a bot's
// search budget. [Clock.Snapshot] returns both players' remaining main
// time, byo-yomi period and plies, time used, and who ran out and when; it
// is safe to call from another goroutine while the game runs.
//
// A Clock reads time from a function given to [NewClock] (nil means
// [time.Now]), so tests drive it with a fake source or run it under
// testing/synctest.
//
// # Keeping time
//
// A bot's side learns the time at each ply through a [Status]: the
// control, whether the platform told it or the protocol assumes its known
// default, both players' clocks where the platform tells them (main time
// left, byo-yomi state, plies left in the period), the bot's plies played,
// when the ply started, and the hard deadline. A protocol puts it on the
// context it hands the player with [WithStatus]; a host that holds a Clock
// builds it with [Snapshot.Status], and [PerMoveStatus], [TimeLeftStatus]
// and [Untold] cover the platforms that tell a per-move cap, the main time
// left of both sides, or nothing. The player reads it with [StatusFrom],
// which also brings its deadline forward to the context's.
//
// The deadline is the limit, never the budget: spending all of it on one
// ply loses the game on time at the next. A [Manager], one per game,
// turns each Status into a [Budget], a soft target and a hard limit:
//
//	// b.tm is a timer.Manager, made new for each game
//	func (b *bot) Play(ctx context.Context, v View) (Move, error) {
//		s, _ := timer.StatusFrom(ctx)
//		budget := b.tm.Allot(s)
//		ctx, cancel := budget.WithHard(ctx)
//		defer cancel()
//		m := b.search(ctx, budget.SoftAt()) // no new iteration after SoftAt
//		b.tm.Observe(time.Since(s.Start), 0)
//		return m, nil
//	}
//
// Under sudden death it shares the time left among the moves still
// expected ([Manager].MovesToGo, or what [Manager].MaxMoves leaves),
// keeping back the answer's latency for each of them; it adds most of an
// increment; in byo-yomi it gives each ply the period's share; under a
// per-move cap, the cap. Every limit keeps a latency margin back, which
// [Manager.Observe] learns from the time each answer took past its hard
// limit and the platform's charge past what the bot measured. The
// numbers are on [Manager]. A bot with another policy reads the Status
// itself and may still use a Manager's [Manager.Margin].
//
// # ErrorTime
//
// [ErrorTime] computes the NTPU client's link-stability figure from the
// server's and the client's measure of the same ply: (X − Y) / 2.
package timer
