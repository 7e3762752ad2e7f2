package tus

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// hostGoldenPlayer is one player of a game in a real server's debug log:
// the nickname it sent (if any), its PUT lines in order, and the
// START/BOARD/TURN/END lines the server sent it.
type hostGoldenPlayer struct {
	nick string
	puts []string
	want []string
}

// hostGoldenGame is one game of a debug log.
type hostGoldenGame struct {
	id     int
	player [2]hostGoldenPlayer
}

var (
	hostGoldenMsg   = regexp.MustCompile(`(Send to |Recv from )([^:]*):(.*)$`)
	hostGoldenStart = regexp.MustCompile(`Game-(\d+) Start\.`)
)

// hostParseDebugLog reads a -debug console log of the real server (see
// testdata/othello/README.md): board-picture fragments may precede a message
// on its line, the nick runs to the first ':'. A player is named by its nick,
// or by BLACK/WHITE (the last game started) before its NICK was processed.
func hostParseDebugLog(t *testing.T, path string) []*hostGoldenGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type who struct {
		g *hostGoldenGame
		c othello.Color
	}
	var games []*hostGoldenGame
	byNick := map[string]who{}
	resolve := func(label string, n int) who {
		if w, ok := byNick[label]; ok {
			return w
		}
		if len(games) == 0 {
			t.Fatalf("%s:%d: message for %q before any game", path, n, label)
		}
		switch label {
		case "BLACK":
			return who{games[len(games)-1], othello.Black}
		case "WHITE":
			return who{games[len(games)-1], othello.White}
		}
		t.Fatalf("%s:%d: unknown player %q", path, n, label)
		return who{}
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := hostGoldenStart.FindStringSubmatch(line); m != nil {
			games = append(games, &hostGoldenGame{id: len(games)})
			continue
		}
		m := hostGoldenMsg.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		w := resolve(m[2], n)
		p := &w.g.player[w.c]
		msg := m[3]
		if m[1] == "Recv from " {
			switch word, rest, _ := strings.Cut(msg, " "); word {
			case "NICK":
				p.nick = rest
				byNick[rest] = w
			case "PUT":
				p.puts = append(p.puts, msg)
			}
			continue
		}
		switch word, _, _ := strings.Cut(msg, " "); word {
		case "START", "BOARD", "TURN", "END":
			p.want = append(p.want, msg+"\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// hostReplayPlayer plays one side of a golden game: NICK first, then on
// each TURN of its colour the next PUT of the log. It returns the
// START/BOARD/TURN/END lines it got, up to END.
func hostReplayPlayer(ctx context.Context, c *hostTestClient, p hostGoldenPlayer) ([]string, error) {
	if p.nick != "" {
		if err := c.send("NICK " + p.nick); err != nil {
			return nil, err
		}
	}
	var got []string
	me := "?"
	puts := p.puts
	for {
		line, err := c.next(ctx)
		if err != nil {
			return got, err
		}
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "START", "BOARD", "TURN", "END":
			got = append(got, line+"\n")
		}
		switch word {
		case "START":
			me = rest
		case "TURN":
			if rest != me {
				continue
			}
			if len(puts) == 0 {
				return got, fmt.Errorf("TURN %s, but the log has no more PUTs", rest)
			}
			if err := c.send(puts[0]); err != nil {
				return got, err
			}
			puts = puts[1:]
		case "END":
			if len(puts) != 0 {
				return got, fmt.Errorf("END with %d PUTs of the log left", len(puts))
			}
			return got, nil
		}
	}
}

// TestHostGolden replays each game of the real server's debug logs
// through our host: two scripted clients with the log's
// nicknames and PUTs, FIFO pairing; each player's START/BOARD/TURN/END lines
// must equal the log's Send to lines for it, byte for byte. The two
// interleaved games of the search-017 log are replayed separately. The
// transcripts must hold the moves of the real -trans files.
func TestHostGolden(t *testing.T) {
	dir := sharedtest.Dir(t, "othello")
	logs, err := filepath.Glob(filepath.Join(dir, "*-server-debug-*.txt"))
	if err != nil || len(logs) == 0 {
		t.Skipf("no debug logs in %s: %v", dir, err)
	}
	// The -trans file of each logged game, by black's nick.
	realTrans := map[string]string{}
	for _, name := range []string{
		"release-v1.0.0-gamelog-game-1-2026-07-22.txt", "release-v1.0.0-gamelog-game-2-2026-07-22.txt",
		"search-017-wld-gamelog-game-1-2026-07-22.txt", "search-017-wld-gamelog-game-2-2026-07-22.txt",
	} {
		tr := hostReadTranscript(t, filepath.Join(dir, name))
		realTrans[tr.Black] = filepath.Join(dir, name)
	}
	replayed := 0
	for _, path := range logs {
		for _, game := range hostParseDebugLog(t, path) {
			name := fmt.Sprintf("%s/game-%d", filepath.Base(path), game.id)
			replayed++
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				hostGoldenReplay(t, game, realTrans)
			})
		}
	}
	if replayed != 4 {
		t.Errorf("replayed %d games of %d logs; the testdata has 4", replayed, len(logs))
	}
}

func hostGoldenReplay(t *testing.T, game *hostGoldenGame, realTrans map[string]string) {
	for i, p := range game.player {
		if len(p.want) < 100 || len(p.puts) < 25 {
			t.Fatalf("%s: %d lines sent and %d PUTs in the log", othello.Color(i), len(p.want), len(p.puts))
		}
	}
	ends := make(chan GameRecord, 1)
	h := &Host{Pairing: PairFIFO, TransDir: t.TempDir(), OnGameEnd: func(r GameRecord) { ends <- r }}
	// The clients send NICK first thing: the pair waits for both NICKs, as
	// long as it takes, so that the header names them as the real one does.
	h.nickGrace = time.Minute
	if game.player[0].nick == "" || game.player[1].nick == "" {
		h.nickGrace = hostNickGrace
	}
	addr := hostTestServe(t, h)
	ctx := hostTestContext(t)
	// Black dials first: FIFO pairing makes the earlier connection black.
	var clients [2]*hostTestClient
	for i := range clients {
		clients[i] = hostTestDial(t, addr)
	}
	var got [2][]string
	var errs [2]error
	done := make(chan struct{}, 2)
	for i := range clients {
		go func() {
			got[i], errs[i] = hostReplayPlayer(ctx, clients[i], game.player[i])
			done <- struct{}{}
		}()
	}
	<-done
	<-done
	for i, p := range game.player {
		c := othello.Color(i)
		if errs[i] != nil {
			t.Errorf("%s %s: %v", c, p.nick, errs[i])
		}
		if d := cmp.Diff(p.want, got[i]); d != "" {
			t.Errorf("%s %s: lines differ from the real server's (-real +ours):\n%s", c, p.nick, d)
		}
	}
	rec := <-ends
	for i, c := range clients {
		// After END, CLOSE closes the connection without an answer.
		if err := c.send("CLOSE"); err != nil {
			t.Errorf("%s: CLOSE after END: %v", othello.Color(i), err)
		}
		if err := c.expectEOF(ctx); err != nil {
			t.Errorf("%s: after CLOSE: %v", othello.Color(i), err)
		}
	}
	if rec.Black != game.player[0].nick || rec.White != game.player[1].nick || rec.Result.Reason != othello.Discs {
		t.Errorf("record: %s vs %s, %v", rec.Black, rec.White, rec.Result)
	}
	// Our transcript is the real one, byte for byte: the header names both
	// players (the host paired them after their NICKs), and the moves are
	// the same.
	ours := hostReadTranscript(t, rec.Transcript)
	realPath, ok := realTrans[rec.Black]
	if !ok {
		t.Fatalf("no real transcript for %s", rec.Black)
	}
	realBytes, err := os.ReadFile(realPath)
	must(t, err)
	oursBytes, err := os.ReadFile(rec.Transcript)
	must(t, err)
	if d := cmp.Diff(string(realBytes), string(oursBytes)); d != "" {
		t.Errorf("transcript differs from %s (-real +ours):\n%s", filepath.Base(realPath), d)
	}
	if d := cmp.Diff(rec.Moves, ours.Moves); d != "" {
		t.Errorf("transcript moves differ from the record's (-record +transcript):\n%s", d)
	}
}

// hostReadTranscript reads a -trans file of a game from the TUS start.
func hostReadTranscript(t *testing.T, path string) *record.OthelloTranscript {
	t.Helper()
	return hostReadTranscriptFrom(t, path, othello.TUS.Start)
}

// hostReadTranscriptFrom reads a -trans file of a game from start.
func hostReadTranscriptFrom(t *testing.T, path string, start othello.Position) *record.OthelloTranscript {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := record.ReadOthelloTranscript(f, start)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tr
}
