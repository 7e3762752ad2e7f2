package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// othelloStart reads the -start flag: tus or standard.
func othelloStart(name string) (othello.Rules, error) {
	switch name {
	case "tus":
		return othello.TUS, nil
	case "standard":
		return othello.Standard, nil
	}
	return othello.Rules{}, fmt.Errorf("unknown start %q (want tus or standard)", name)
}

// serveOthello runs the TUS-compatible server until ctx is done. Its flags are
// the real server's, with the same single-dash spelling.
func serveOthello(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena serve othello", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 25033, "TCP port to listen on (0 picks a free one)")
	timeout := fs.Int("timeout", 0, "seconds a player has to answer TURN with a valid PUT (0: no limit)")
	debug := fs.Bool("debug", false, "print every message sent and received")
	monitor := fs.Bool("monitor", false, "print the board after every move")
	trans := fs.Bool("trans", false, "write each game's transcript gamelog_<host>_<ms>.txt in the working directory")
	score := fs.Bool("score", false, "write $HOME/jwww/OthelloScore_<host>.html after every game")
	var pairing protocol.OthelloPairing
	fs.TextVar(&pairing, "pairing", protocol.PairRandom, "how waiting clients are paired: random or fifo")
	start := fs.String("start", "tus", "start position: tus (the server's) or standard")
	maxErrors := fs.Int("maxerrors", 0, "a player loses after this many ERRORs in one game (0: no limit)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve othello: unexpected argument %q", fs.Arg(0))
	}
	rules, err := othelloStart(*start)
	if err != nil {
		return fmt.Errorf("serve othello: -start: %w", err)
	}
	ctl, err := timer.OthelloTimeout(*timeout)
	if err != nil {
		return fmt.Errorf("serve othello: %w", err)
	}
	if *maxErrors < 0 {
		return fmt.Errorf("serve othello: -maxerrors %d: must be 0 or more", *maxErrors)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf(":%d", *port))
	if err != nil {
		return fmt.Errorf("serve othello: %w", err)
	}
	hostname, _ := os.Hostname()
	h := &protocol.OthelloHost{
		Timeout:   ctl.MoveCap,
		Pairing:   pairing,
		Rules:     rules,
		MaxErrors: *maxErrors,
		Logger:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if *debug {
		h.Console = stdout
	}
	if *monitor {
		h.Monitor = stdout
	}
	if *trans {
		h.TransDir = "."
	}
	if *score {
		sb := &scoreBoard{path: scorePath(hostname), host: hostname}
		h.OnGameEnd = func(r protocol.OthelloGameRecord) {
			if err := sb.add(r); err != nil {
				fmt.Fprintln(stderr, "arena: -score:", err)
			}
		}
	}
	// The banner scripts wait for (spec §3.9).
	if *timeout > 0 {
		fmt.Fprintf(stdout, "Set Timeout: %d sec\n", *timeout)
	}
	fmt.Fprintf(stdout, "Othello Server ver %s start: (tcp port:%d)\n", version, ln.Addr().(*net.TCPAddr).Port)
	if *debug {
		fmt.Fprintln(stdout, "Debug mode: ON")
	}
	fmt.Fprintf(stdout, "Host: %s\n", hostname)
	err = h.Serve(ctx, ln)
	if ctx.Err() != nil {
		return nil // stopped by the user
	}
	return err
}

// matchOthello plays games between two players through a real server on
// loopback, each player a TCP client.
func matchOthello(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena match othello", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena match othello [flags] [black [white]]\n\nplayers (built-in): %s (default: alphabeta random)\n\nflags:\n", strings.Join(othelloBotNames(), ", "))
		fs.PrintDefaults()
	}
	games := fs.Int("games", 1, "number of games; colours swap after each game")
	timeout := fs.Int("timeout", 10, "seconds a player has for each move (0: no limit)")
	seed := fs.Uint64("seed", 0, "seed of the built-in players (0: a random seed)")
	start := fs.String("start", "tus", "start position: tus (the server's) or standard")
	transDir := fs.String("trans", "", "directory for each game's -trans transcript (none if empty)")
	debug := fs.Bool("debug", false, "print every message the server sends and receives")
	if err := fs.Parse(args); err != nil {
		return err
	}
	names := []string{"alphabeta", "random"}
	switch fs.NArg() {
	case 0:
	case 1:
		names[0] = fs.Arg(0)
	case 2:
		names[0], names[1] = fs.Arg(0), fs.Arg(1)
	default:
		return fmt.Errorf("match othello: at most two players, got %q", fs.Args())
	}
	rules, err := othelloStart(*start)
	if err != nil {
		return fmt.Errorf("match othello: -start: %w", err)
	}
	switch {
	case *games < 1:
		return fmt.Errorf("match othello: -games %d: play at least one game", *games)
	}
	ctl, err := timer.OthelloTimeout(*timeout)
	if err != nil {
		return fmt.Errorf("match othello: %w", err)
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	var players [2]protocol.OthelloPlayer
	for i, n := range names {
		if players[i], err = newOthelloBot(n, *seed+uint64(i)); err != nil {
			return fmt.Errorf("match othello: %w", err)
		}
	}
	if *transDir != "" {
		if err := os.MkdirAll(*transDir, 0o755); err != nil {
			return fmt.Errorf("match othello: -trans: %w", err)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("match othello: %w", err)
	}
	records := make(chan protocol.OthelloGameRecord, 1)
	h := &protocol.OthelloHost{
		Timeout:   ctl.MoveCap,
		Pairing:   protocol.PairFIFO,
		Rules:     rules,
		TransDir:  *transDir,
		OnGameEnd: func(r protocol.OthelloGameRecord) { records <- r },
	}
	if *debug {
		h.Console = stdout
	}
	serveCtx, stopServe := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- h.Serve(serveCtx, ln) }()
	defer func() { stopServe(); <-served }()

	addr := ln.Addr().String()
	fmt.Fprintf(stdout, "Othello server on %s (start %s, %d s per move), seed %d\n", addr, rules.Name, *timeout, *seed)
	var wins [2]int
	draws := 0
	for g := range *games {
		black, white := g%2, 1-g%2 // swap colours every game
		fmt.Fprintf(stdout, "\nGame %d: %s (black) vs %s (white)\n", g+1, names[black], names[white])
		rec, err := playOthelloGame(ctx, addr, records, [2]string{names[black], names[white]}, [2]protocol.OthelloPlayer{players[black], players[white]})
		if err != nil {
			return fmt.Errorf("match othello: game %d: %w", g+1, err)
		}
		printOthelloGame(stdout, rec)
		switch r := rec.Result; {
		case r.Draw:
			draws++
		case r.Winner == othello.Black:
			wins[black]++
		default:
			wins[white]++
		}
	}
	fmt.Fprintf(stdout, "\nMatch: %s %d, %s %d, draws %d\n", names[0], wins[0], names[1], wins[1], draws)
	return nil
}

// playOthelloGame connects the two players, black first so that the FIFO
// pairing makes it black, and returns the host's record of the game.
func playOthelloGame(ctx context.Context, addr string, records <-chan protocol.OthelloGameRecord, nicks [2]string, players [2]protocol.OthelloPlayer) (protocol.OthelloGameRecord, error) {
	var d net.Dialer
	var conns [2]net.Conn
	for i := range conns {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			for _, open := range conns[:i] {
				open.Close()
			}
			return protocol.OthelloGameRecord{}, err
		}
		conns[i] = c
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range conns {
		client := &protocol.OthelloClient{Nick: nicks[i]}
		if i == 1 && nicks[1] == nicks[0] {
			client.Nick = nicks[1] + "2"
		}
		wg.Go(func() {
			defer conns[i].Close()
			_, errs[i] = client.Run(ctx, conns[i], players[i])
		})
	}
	wg.Wait()
	select {
	case rec := <-records:
		return rec, nil
	case <-ctx.Done():
		return protocol.OthelloGameRecord{}, ctx.Err()
	}
}

// printOthelloGame prints the moves as the server saw them, the standard move
// list, the final board and the result.
func printOthelloGame(w io.Writer, rec protocol.OthelloGameRecord) {
	g := othello.NewGame(othello.Rules{Name: "record", Start: rec.Start})
	var line strings.Builder
	for i, m := range rec.Moves {
		mover := g.Turn()
		if err := g.Play(m); err != nil {
			fmt.Fprintf(w, "  move %d %s: %v\n", i+1, m, err)
			break
		}
		if i%10 == 0 {
			if line.Len() > 0 {
				fmt.Fprintln(w, line.String())
			}
			line.Reset()
			fmt.Fprintf(&line, "  %2d.", i+1)
		}
		tag := "X"
		if mover == othello.White {
			tag = "O"
		}
		fmt.Fprintf(&line, " %s:%s", tag, m)
	}
	if line.Len() > 0 {
		fmt.Fprintln(w, line.String())
	}
	if list, err := record.AppendOthelloMoveList(nil, g); err == nil {
		fmt.Fprintf(w, "  move list (standard orientation): %s\n", list)
	}
	fmt.Fprint(w, g.Position().Diagram())
	fmt.Fprintf(w, "Result: %s; %s (black) vs %s (white)\n", rec.Result, rec.Black, rec.White)
	if rec.End != "" {
		fmt.Fprintf(w, "END %s\n", rec.End)
	}
	if rec.Transcript != "" {
		fmt.Fprintf(w, "Transcript: %s\n", rec.Transcript)
	}
}

// scorePath is where -score writes: $HOME/jwww/OthelloScore_<host>.html.
func scorePath(hostname string) string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = "."
	}
	return filepath.Join(home, "jwww", "OthelloScore_"+hostname+".html")
}

// scoreBoard keeps the -score tally and rewrites the HTML file after every
// game: wins, losses and draws per nickname, ranked by win rate for players
// with at least 10 games, the others listed as unranked.
type scoreBoard struct {
	path, host string
	mu         sync.Mutex
	rows       map[string]*scoreRow
}

type scoreRow struct {
	Nick                      string
	Wins, Losses, Draws, Rank int
}

func (r *scoreRow) games() int { return r.Wins + r.Losses + r.Draws }

func (r *scoreRow) rate() float64 {
	if r.games() == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.games())
}

func (s *scoreBoard) add(rec protocol.OthelloGameRecord) error {
	if rec.Result.Reason == othello.Unfinished {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rows == nil {
		s.rows = map[string]*scoreRow{}
	}
	row := func(nick string) *scoreRow {
		if s.rows[nick] == nil {
			s.rows[nick] = &scoreRow{Nick: nick}
		}
		return s.rows[nick]
	}
	b, w := row(rec.Black), row(rec.White)
	switch r := rec.Result; {
	case r.Draw:
		b.Draws++
		w.Draws++
	case r.Winner == othello.Black:
		b.Wins++
		w.Losses++
	default:
		w.Wins++
		b.Losses++
	}
	var ranked, unranked []*scoreRow
	for _, r := range s.rows {
		if r.games() >= 10 {
			ranked = append(ranked, r)
		} else {
			unranked = append(unranked, r)
		}
	}
	slices.SortFunc(ranked, func(a, b *scoreRow) int {
		return cmp.Or(cmp.Compare(b.rate(), a.rate()), cmp.Compare(a.Nick, b.Nick))
	})
	for i, r := range ranked {
		r.Rank = i + 1
	}
	slices.SortFunc(unranked, func(a, b *scoreRow) int { return cmp.Compare(a.Nick, b.Nick) })
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = scoreTemplate.Execute(f, map[string]any{"Host": s.host, "Ranked": ranked, "Unranked": unranked, "Time": time.Now().Format(time.DateTime)})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return os.Rename(tmp, s.path)
}

var scoreTemplate = template.Must(template.New("score").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Othello score: {{.Host}}</title></head>
<body><h1>Othello score: {{.Host}}</h1><p>Updated {{.Time}}. Ranked by win rate (a draw counts half) among players with 10 games or more.</p>
<table border="1"><tr><th>Rank</th><th>Nick</th><th>Wins</th><th>Losses</th><th>Draws</th></tr>
{{range .Ranked}}<tr><td>{{.Rank}}</td><td>{{.Nick}}</td><td>{{.Wins}}</td><td>{{.Losses}}</td><td>{{.Draws}}</td></tr>
{{end}}{{range .Unranked}}<tr><td>unranked</td><td>{{.Nick}}</td><td>{{.Wins}}</td><td>{{.Losses}}</td><td>{{.Draws}}</td></tr>
{{end}}</table></body></html>
`))

// othelloDef describes Othello to arena.
func othelloDef() *gameDef {
	return &gameDef{
		Name:      "othello",
		Title:     "Othello",
		Builtins:  othelloBotNames(),
		Protocols: []string{"tcp"},
		Defaults:  [2]string{"alphabeta", "random"},
		Seats:     [2]string{"black", "white"},
		Presets:   []string{"tus", "standard", "6x6"},
		Serve:     serveOthello,
	}
}
