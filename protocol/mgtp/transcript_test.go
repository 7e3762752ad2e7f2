package mgtp_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/protocol/mgtp"
)

// mgtpDir is testdata/darkchess/mgtp of the shared test data.
func mgtpDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "darkchess", "mgtp")
}

// exchange is one command of a .command transcript and the reply the
// system logged, without its '=' (none: the command was not answered).
type exchange struct {
	cmd      string
	reply    string
	answered bool
}

// transcript is a .command file, read.
type transcript struct {
	name       string
	raw        []byte
	ex         []exchange
	bareAfter  bool // a bare ">>" follows the final quit
	first      bool // the logging engine is the first player
	plies      []darkchess.Ply
	movers     []darkchess.Color
	lefts      []time.Duration // the mover's time_left after each ply
	logPlies   []bool          // the ply is the logging engine's
	lastMove   string          // the reply to the last genmove, if any
	finalAsked bool            // the last genmove got no answer
}

func readTranscript(t testing.TB, path string) *transcript {
	t.Helper()
	tr, err := parseTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// parseTranscript reads a .command file.
func parseTranscript(path string) (*transcript, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tr := &transcript{name: filepath.Base(path), raw: raw}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		l := sc.Text()
		if r, ok := strings.CutPrefix(l, ">>"); ok {
			if len(tr.ex) == 0 {
				return nil, fmt.Errorf("%s: reply before any command", path)
			}
			last := &tr.ex[len(tr.ex)-1]
			if last.cmd == "5 quit" && r == "" {
				tr.bareAfter = true
				continue
			}
			last.reply, last.answered = r, true
			continue
		}
		tr.ex = append(tr.ex, exchange{cmd: l})
	}
	genmoveBefore := false
	for i, e := range tr.ex {
		c, err := mgtp.ParseCommand(e.cmd)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch c.ID {
		case mgtp.CmdGenmove:
			if len(tr.plies) == 0 {
				tr.first = true
			}
			genmoveBefore = true
			tr.finalAsked = !e.answered
		case mgtp.CmdMove, mgtp.CmdFlip:
			p, err := c.Ply()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if i+1 >= len(tr.ex) {
				return nil, fmt.Errorf("%s: no time_left after %q", path, e.cmd)
			}
			tl, err := mgtp.ParseCommand(tr.ex[i+1].cmd)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			col, left, err := tl.TimeLeft()
			if err != nil {
				return nil, fmt.Errorf("%s: after %q: %w", path, e.cmd, err)
			}
			tr.plies = append(tr.plies, p)
			tr.movers = append(tr.movers, col)
			tr.lefts = append(tr.lefts, left)
			tr.logPlies = append(tr.logPlies, genmoveBefore)
			genmoveBefore = false
		}
	}
	return tr, nil
}

// transcripts reads every .command file.
func transcripts(t testing.TB) []*transcript {
	dir := mgtpDir(t)
	names, err := filepath.Glob(filepath.Join(dir, "*.command"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no transcripts in %s: %v", dir, err)
	}
	var trs []*transcript
	for _, n := range names {
		trs = append(trs, readTranscript(t, n))
	}
	return trs
}

// deal returns the opening dealt so that every flip of tr reveals its
// piece; the squares never flipped get the rest of the pieces.
func (tr *transcript) deal(t testing.TB) darkchess.Position {
	t.Helper()
	var s darkchess.Setup
	var pool [16]int
	for pc := darkchess.RedKing; pc <= darkchess.BlackPawn; pc++ {
		pool[pc] = pc.Kind().InitialCount()
	}
	for i := range s.Board {
		s.Board[i] = darkchess.Hidden
	}
	for _, p := range tr.plies {
		if p.Move.IsFlip() {
			s.Deal[p.Move.From()] = p.Piece
			pool[p.Piece]--
		}
	}
	pc := darkchess.RedKing
	for sq := range s.Deal {
		if s.Deal[sq] != darkchess.NoPiece {
			continue
		}
		for pool[pc] == 0 {
			pc++
		}
		s.Deal[sq] = pc
		pool[pc]--
	}
	s.Turn = darkchess.NoColor
	p, err := darkchess.NewPosition(s)
	if err != nil {
		t.Fatalf("%s: deal: %v", tr.name, err)
	}
	return p
}

// recordResult reads the result line of the game's record (.txt next to
// the transcript): the reason word and the winner's seat (0 first, 1
// second, -1 a draw).
func (tr *transcript) recordResult(t testing.TB) (string, int) {
	t.Helper()
	path := filepath.Join(mgtpDir(t), strings.TrimSuffix(tr.name, ".command")+".txt")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var players []string
	for l := range strings.Lines(string(b)) {
		l = strings.TrimRight(l, "\r\n")
		if p, ok := strings.CutPrefix(l, "* "); ok && strings.Contains(p, " vs ") && players == nil {
			players = strings.Split(p, " vs ")
			continue
		}
		f := strings.Fields(l)
		if len(f) == 5 && f[0] == "*" && (f[3] == "Wins" || f[3] == "wins" || f[3] == "Draw") {
			if f[3] == "Draw" {
				return f[1], -1
			}
			if f[2] == players[0] {
				return f[1], 0
			}
			return f[1], 1
		}
	}
	t.Fatalf("%s: no result line", path)
	return "", 0
}
