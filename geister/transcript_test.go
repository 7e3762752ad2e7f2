package geister_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/sharedtest"
)

// transcriptDir holds the Java server captures. The record and
// protocol packages replay them through their parsers; this test only needs
// the rules: it reads the raw lines itself and replays the accepted moves.
func transcriptDir(t *testing.T) string {
	return sharedtest.Dir(t, "geister")
}

// sideLog is what one player sent and received, in order, up to its first
// result.
type sideLog struct {
	reds      geister.Reds
	moves     []geister.Move // accepted, as sent
	acks      []string       // the ack of each accepted move
	boards    []string       // the MOV? boards
	result    string         // the first WON:/LST:/DRW: message
	inTurnNGs []string       // commands refused while this side was to move
	ngTurn    []int          // for each, the number of this side's accepted moves before it
}

// readTranscript splits a capture into the two players' logs.
func readTranscript(t *testing.T, path string) [2]*sideLog {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	logs := [2]*sideLog{{}, {}}
	pending := [2][]string{} // commands awaiting their reply, and how many MOV? had come before each
	pendingTurn := [2][]bool{}
	done := [2]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		q := strings.IndexByte(line, '"')
		if len(fields) < 4 || q < 0 {
			continue
		}
		side := map[string]int{"P0": 0, "P1": 1}[fields[1]]
		var data string
		if err := json.Unmarshal([]byte(line[q:]), &data); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		if done[side] {
			continue
		}
		l := logs[side]
		for _, msg := range strings.Split(data, "\r\n") {
			if msg == "" || done[side] {
				continue
			}
			switch fields[2] {
			case "C>S":
				// In turn when every MOV? so far has been answered but
				// the last.
				pending[side] = append(pending[side], msg)
				pendingTurn[side] = append(pendingTurn[side], len(l.boards) == len(l.moves)+1)
			case "S>C":
				switch {
				case strings.HasPrefix(msg, "MOV?"):
					l.boards = append(l.boards, msg[4:])
				case strings.HasPrefix(msg, "WON:"), strings.HasPrefix(msg, "LST:"), strings.HasPrefix(msg, "DRW:"):
					l.result, done[side] = msg, true
				case strings.HasPrefix(msg, "OK"), strings.HasPrefix(msg, "NG"):
					if len(pending[side]) == 0 {
						t.Fatalf("%s: reply %q to nothing", path, msg)
					}
					cmd, inTurn := pending[side][0], pendingTurn[side][0]
					pending[side], pendingTurn[side] = pending[side][1:], pendingTurn[side][1:]
					ok := strings.HasPrefix(msg, "OK")
					switch {
					case strings.HasPrefix(cmd, "SET:") && ok:
						r, err := geister.ParseReds(cmd)
						if err != nil {
							t.Fatalf("%s: accepted %q: %v", path, cmd, err)
						}
						l.reds = r
					case strings.HasPrefix(cmd, "SET:"):
						if _, err := geister.ParseReds(cmd); err == nil {
							t.Errorf("%s: the server refused %q, ParseReds accepts it", path, cmd)
						}
					case ok:
						m, err := geister.ParseMove(cmd)
						if err != nil {
							t.Fatalf("%s: accepted %q: %v", path, cmd, err)
						}
						l.moves = append(l.moves, m)
						l.acks = append(l.acks, msg)
					case inTurn:
						l.inTurnNGs = append(l.inTurnNGs, cmd)
						l.ngTurn = append(l.ngTurn, len(l.moves))
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return logs
}

// TestTranscripts replays every capture: the accepted moves are legal, every
// MOV? board is the mover's view, every ack names the captured colour, every
// move the server refused in turn is refused here too, and the first result
// board of each side is the final position's global board.
func TestTranscripts(t *testing.T) {
	dir := transcriptDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	n := 0
	for _, path := range files {
		base := filepath.Base(path)
		if !strings.HasPrefix(base, "random-game") && !strings.HasPrefix(base, "scenario-") {
			continue
		}
		n++
		t.Run(strings.TrimSuffix(base, ".txt"), func(t *testing.T) {
			logs := readTranscript(t, path)
			start, err := geister.Start(logs[0].reds, logs[1].reds)
			if err != nil {
				t.Fatal(err)
			}
			g := geister.NewGame(geister.GAT, start)
			var nBoards, nRefused, nResults int
			total := len(logs[0].moves) + len(logs[1].moves)
			if d := len(logs[0].moves) - len(logs[1].moves); d != 0 && d != 1 {
				t.Fatalf("%d and %d accepted moves", len(logs[0].moves), len(logs[1].moves))
			}
			for ply := 0; ply < total; ply++ {
				side := ply % 2
				l := logs[side]
				turn := ply / 2
				if turn < len(l.boards) {
					if got := g.View(geister.Color(side)).String(); got != l.boards[turn] {
						t.Fatalf("ply %d: P%d's view %s, MOV? %s", ply, side, got, l.boards[turn])
					}
					nBoards++
				}
				p := g.Position()
				for i, cmd := range l.inTurnNGs {
					if l.ngTurn[i] != turn {
						continue
					}
					if m, err := geister.ParseMove(cmd); err == nil && p.IsLegal(m) {
						t.Errorf("ply %d: the server refused %q, legal here", ply, cmd)
					}
					nRefused++
				}
				m := l.moves[turn]
				want := "OK "
				if _, col, ok := p.Captures(m); ok {
					want = map[geister.GhostColor]string{geister.Red: "OKR", geister.Blue: "OKB"}[col]
				}
				if got := l.acks[turn]; got != want && !p.IsEscape(m) { // D7: an escape may be acked OKR/OKB
					t.Errorf("ply %d: %s acked %q, want %q", ply, m, got, want)
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("ply %d: %v", ply, err)
				}
			}
			// Refused moves after the last accepted one (an illegal move
			// that ended the game, or retries).
			for side, l := range logs {
				for i, cmd := range l.inTurnNGs {
					if l.ngTurn[i] == len(l.moves) && 2*len(l.moves)+side == total {
						if m, err := geister.ParseMove(cmd); err == nil && g.Position().IsLegal(m) {
							t.Errorf("final: the server refused %q, legal here", cmd)
						}
						nRefused++
					}
				}
			}
			// The remaining boards: a MOV? for the final position.
			for side, l := range logs {
				if len(l.boards) > len(l.moves) {
					if got := g.View(geister.Color(side)).String(); got != l.boards[len(l.boards)-1] {
						t.Errorf("final: P%d's view %s, MOV? %s", side, got, l.boards[len(l.boards)-1])
					}
					nBoards++
				}
			}
			r, over := g.Result()
			for side, l := range logs {
				if l.result == "" {
					continue
				}
				if got := g.Position().Board(geister.Color(side)); got != l.result[4:] {
					t.Errorf("P%d's result %s, final board %s", side, l.result, got)
				}
				nResults++
				if !over {
					continue // a referee ending: time out or an illegal move
				}
				want := "LST:"
				switch {
				case r.Draw:
					want = "DRW:"
				case r.Winner == geister.Color(side):
					want = "WON:"
				}
				if l.result[:4] != want {
					t.Errorf("P%d got %s, but the game ended %v", side, l.result, r)
				}
			}
			t.Logf("%d plies, %v; %d MOV? boards, %d refused moves, %d result boards checked", total, r, nBoards, nRefused, nResults)
			if nBoards == 0 || nResults == 0 {
				t.Error("nothing checked")
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d transcripts in %s", n, dir)
	}
}

// TestViewerStrings checks the WebSocket viewer's strings of random-game-1:
// each one after both setups is the second player's global board
// (Position.Board(Second)) of a position of the game, MV0/MV1 at the right
// parity.
func TestViewerStrings(t *testing.T) {
	dir := transcriptDir(t)
	logs := readTranscript(t, filepath.Join(dir, "random-game-1.txt"))
	start, err := geister.Start(logs[0].reds, logs[1].reds)
	if err != nil {
		t.Fatal(err)
	}
	boards := map[string]int{start.Board(geister.Second): 0}
	p := start
	for ply := 0; ply < len(logs[0].moves)+len(logs[1].moves); ply++ {
		p = p.PlayUnchecked(p.Normalize(logs[ply%2].moves[ply/2]))
		boards[p.Board(geister.Second)] = ply + 1
	}
	data, err := os.ReadFile(filepath.Join(dir, "ws-viewer-random-game-1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) != 2 || strings.HasPrefix(line, "#") || len(f[1]) != 4+geister.BoardLen {
			continue
		}
		label, board := f[1][:4], f[1][4:]
		if label == "MOV:" {
			continue // before both setups: colours not yet chosen
		}
		ply, ok := boards[board]
		if !ok {
			t.Errorf("viewer string %s is no position of the game", f[1])
			continue
		}
		if (label == "MV0:" && ply%2 != 0) || (label == "MV1:" && ply%2 != 1) || (label == "WI0:" && !p.IsOver()) {
			t.Errorf("viewer string %s at ply %d", f[1], ply)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d viewer strings checked", checked)
	}
}
