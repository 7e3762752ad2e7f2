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
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
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
	trans := fs.Bool("trans", true, "write each game's transcript gamelog_<host>_<ms>.txt in the working directory (the real server's default is off; -trans=false)")
	score := fs.Bool("score", false, "write $HOME/jwww/OthelloScore_<host>.html after every game")
	var pairing tus.Pairing
	fs.TextVar(&pairing, "pairing", tus.PairRandom, "how waiting clients are paired: random or fifo")
	start := fs.String("start", "tus", "start position: tus (the server's) or standard")
	maxErrors := fs.Int("maxerrors", 0, "a player loses after this many ERRORs in one game (0: no limit)")
	maxConns := fs.Int("maxconns", tus.DefaultMaxConns, "connections open at once; one more is told the server is full and closed")
	web := fs.String("web", "", "serve the web viewer on this address (\":8080\"): the games live, and replays of the transcripts")
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
	if *maxConns < 1 {
		return fmt.Errorf("serve othello: -maxconns %d: must be 1 or more", *maxConns)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf(":%d", *port))
	if err != nil {
		return fmt.Errorf("serve othello: %w", err)
	}
	hostname, _ := os.Hostname()
	h := &tus.Host{
		Timeout:   ctl.MoveCap,
		Pairing:   pairing,
		Rules:     rules,
		MaxErrors: *maxErrors,
		MaxConns:  *maxConns,
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
	var ends []func(tus.GameRecord)
	if *score {
		sb := &scoreBoard{path: scorePath(hostname), host: hostname}
		ends = append(ends, func(r tus.GameRecord) {
			if err := sb.add(r); err != nil {
				fmt.Fprintln(stderr, "arena: -score:", err)
			}
		})
	}
	if *web != "" {
		// The viewer outlives the games a little, so it shows their end.
		viewCtx, stopView := context.WithCancel(context.WithoutCancel(ctx))
		w, wait, err := startViewer(viewCtx, *web, stdout, []string{"."})
		if err != nil {
			stopView()
			ln.Close()
			return fmt.Errorf("serve othello: -web: %w", err)
		}
		defer func() { stopView(); wait() }()
		lv := &othelloServerLive{w: w, games: map[int]*othelloLive{}}
		h.OnMove = lv.move
		ends = append(ends, lv.end)
	}
	h.OnGameEnd = func(r tus.GameRecord) {
		for _, f := range ends {
			f(r)
		}
	}
	// The banner scripts wait for.
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

// othelloServerLive shows the games of "arena serve othello" in the viewer.
type othelloServerLive struct {
	w     viewer.Watcher
	mu    sync.Mutex
	games map[int]*othelloLive // by game ID, while they run
}

func (l *othelloServerLive) move(e tus.MoveEvent) {
	l.mu.Lock()
	g := l.games[e.Game]
	if g == nil {
		g = &othelloLive{w: l.w, id: fmt.Sprintf("othello-%d", e.Game+1)}
		l.games[e.Game] = g
	}
	l.mu.Unlock()
	if e.Ply == 0 {
		g.begin(viewer.GameInfo{
			ID:      g.id,
			Game:    "othello",
			Title:   fmt.Sprintf("Game-%d: %s (black) vs %s (white)", e.Game, e.Black, e.White),
			Players: [2]string{e.Black, e.White},
			Seats:   [2]string{"black", "white"},
		}, e.Position)
		return
	}
	g.update(e, 0)
}

func (l *othelloServerLive) end(r tus.GameRecord) {
	l.mu.Lock()
	g := l.games[r.ID]
	delete(l.games, r.ID)
	l.mu.Unlock()
	if g != nil {
		g.finish(endingStatus([2]string{r.Black, r.White}, othelloServedResult(r.Result)), r.Transcript)
	}
}

// othelloServedResult is the result of a game the server refereed, for its
// status in the viewer: the server knows no program's fault, so the
// platform's reason decides the ending.
func othelloServedResult(r othello.Result) gameResult {
	res := gameResult{Winner: -2, Ending: othelloEnding(r.Reason), Detail: fmt.Sprintf("%d-%d", r.Black, r.White)}
	switch {
	case r.Reason == othello.Unfinished:
		res.Ending, res.Detail = endNone, ""
	case r.Draw:
		res.Winner = -1
	case r.Winner == othello.Black:
		res.Winner = 0
	default:
		res.Winner = 1
	}
	return res
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

func (s *scoreBoard) add(rec tus.GameRecord) error {
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
