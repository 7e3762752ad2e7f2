package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/viewer"
)

// seatEvent is one "seat" event of a seat's event stream, as the seat
// page reads it: the tests of the four games' persons follow their seats
// with it.
type seatEvent struct {
	Session string `json:"session"`
	State   struct {
		Frame    viewer.Frame `json:"frame"`
		From     int          `json:"from"`
		Moves    []string     `json:"moves"`
		Finished bool         `json:"finished"`
		Result   string       `json:"result"`
	} `json:"state"`
	N        uint64           `json:"n"`
	Question *viewer.Question `json:"question"`
	Closed   bool             `json:"closed"`
}

// TestHumanPlayerSpec checks how a match takes a person: "human" and
// "NAME=human" are persons, a match with one needs -web, and without
// -time it gets the game's time for persons (Othello's and PDD's
// platforms give programs seconds), while a -time given stands.
func TestHumanPlayerSpec(t *testing.T) {
	for _, c := range []struct {
		game string
		args []string
		want string // the time control, or the error's words
		err  bool
	}{
		{"othello", []string{"human", "random"}, "-web ADDR", true},
		{"othello", []string{"human", "random", "-web", "127.0.0.1:0"}, "60s/move", false},
		{"othello", []string{"alice=human", "random", "-web", "127.0.0.1:0", "-time", "5s/move"}, "5s/move", false},
		{"pdd", []string{"random", "human", "-web", "127.0.0.1:0"}, "60s/move", false},
		{"darkchess", []string{"human", "random", "-web", "127.0.0.1:0"}, "900s", false},
		{"othello", []string{"random", "greedy"}, "10s/move", false},
	} {
		def, err := findGame(c.game)
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-out", filepath.Join(t.TempDir(), "run")}, c.args...)
		pr, err := prepareRun("match", def, args, new(bytes.Buffer), new(bytes.Buffer))
		if c.err {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("arena match %s %q: error %v, want one saying %s", c.game, c.args, err, c.want)
			}
			if err == nil {
				pr.close()
			}
			continue
		}
		if err != nil {
			t.Errorf("arena match %s %q: %v", c.game, c.args, err)
			continue
		}
		if pr.cfg.Time != c.want {
			t.Errorf("arena match %s %q: time %q, want %q", c.game, c.args, pr.cfg.Time, c.want)
		}
		persons := map[string]string{"human": "human", "alice=human": "alice"} // spec: name
		for _, p := range pr.cfg.Players {
			name, person := persons[p.Spec]
			if p.Human != person || person && p.Name != name {
				t.Errorf("player %q: a person %v, named %q", p.Spec, p.Human, p.Name)
			}
		}
		pr.close()
	}
}
