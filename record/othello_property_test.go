package record_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/othello/othellotest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// recorded returns the moves a record keeps of g: all of them but a pass at
// the very end, which neither format can show.
func recorded(g *othello.Game) []othello.Move {
	ms := g.Moves()
	if n := len(ms); n > 0 && ms[n-1] == othello.Pass {
		ms = ms[:n-1]
	}
	return ms
}

// nickname generates nicknames, the awkward ones often.
func nickname() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.String(),
		rapid.StringMatching(`[A-Za-z0-9_]{1,12}`),
		rapid.SampledFrom([]string{"", "BLACK", "a,W:b", ",W:", "W:", ",W", "a,", "x\ny", "x\r", " ", "名前"}),
	)
}

// Random legal games, from either start, with any nicknames, survive
// -trans: written by both writers (the same bytes), read back to the same
// transcript and the same final position.
func TestOthelloTranscriptRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]othello.Rules{othello.TUS, othello.Standard}).Draw(t, "rules")
		g := othellotest.Game(rules).Draw(t, "game")
		black, white := nickname().Draw(t, "black"), nickname().Draw(t, "white")
		tr := record.NewOthelloTranscript(g, black, white)

		var out bytes.Buffer
		err := record.WriteOthelloTranscript(&out, tr)
		unwritable := strings.ContainsAny(black+white, "\r\n") || strings.Contains(black, ",W:")
		if unwritable {
			if !errors.Is(err, errors.ErrUnsupported) || out.Len() != 0 {
				t.Fatalf("names %q, %q: %v, wrote %q", black, white, err, out.String())
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 + len(recorded(g)) - countPasses(recorded(g)); bytes.Count(out.Bytes(), []byte("\n")) != want {
			t.Fatalf("%d lines, want %d:\n%s", bytes.Count(out.Bytes(), []byte("\n")), want, out.String())
		}

		var live bytes.Buffer
		tw, err := record.NewOthelloTransWriter(&live, black, white)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range g.Moves() {
			if m != othello.Pass {
				p, _ := g.PositionAt(i)
				if err := tw.Move(m.Square(), p.Turn()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !bytes.Equal(live.Bytes(), out.Bytes()) {
			t.Fatalf("OthelloTransWriter wrote\n%q\nWriteOthelloTranscript\n%q", live.String(), out.String())
		}

		start := rules.Start
		if rules.Name == "tus" && rapid.Bool().Draw(t, "default start") {
			start = othello.Position{}
		}
		back, err := record.ReadOthelloTranscript(bytes.NewReader(out.Bytes()), start)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		want := &record.OthelloTranscript{Black: black, White: white, Start: rules.Start, Moves: recorded(g)}
		if diff := cmp.Diff(want, back, positionComparer, cmp.Transformer("nilEmpty", nilEmpty)); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		bg, err := back.Game()
		if err != nil {
			t.Fatal(err)
		}
		if end, _ := g.PositionAt(len(recorded(g))); bg.Position() != end || bg.IsOver() != g.IsOver() {
			t.Fatalf("replay ends on %s (over %v), want %s (over %v)", bg.Position(), bg.IsOver(), end, g.IsOver())
		}
	})
}

func nilEmpty(ms []othello.Move) []othello.Move {
	if len(ms) == 0 {
		return nil
	}
	return ms
}

func countPasses(ms []othello.Move) int {
	n := 0
	for _, m := range ms {
		if m == othello.Pass {
			n++
		}
	}
	return n
}

// Random legal games from either start survive the move list, written
// canonically or with any case, white space and explicit passes.
func TestOthelloMoveListRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]othello.Rules{othello.TUS, othello.Standard}).Draw(t, "rules")
		g := othellotest.Game(rules).Draw(t, "game")
		sym := othello.Identity
		if rules.Name == "tus" {
			sym = othello.FlipX
		}
		var want []othello.Move
		for _, m := range recorded(g) {
			want = append(want, sym.Move(m))
		}

		list, err := record.AppendOthelloMoveList(nil, g)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2*(len(want)-countPasses(want)) || strings.ToLower(string(list)) != string(list) {
			t.Fatalf("move list %q for %d moves", list, len(want))
		}
		back, err := record.ParseOthelloMoveList(string(list))
		if err != nil {
			t.Fatalf("%q: %v", list, err)
		}
		if diff := cmp.Diff(want, back.Moves(), cmp.Transformer("nilEmpty", nilEmpty)); diff != "" {
			t.Fatalf("%q: (-want +got):\n%s", list, diff)
		}
		if back.Position() != sym.Position(mustPositionAt(t, g, len(recorded(g)))) {
			t.Fatalf("%q ends on %s", list, back.Position())
		}

		// The same game written loosely.
		var loose strings.Builder
		space := rapid.SampledFrom([]string{"", "", "", " ", "\n", "\r\n", "\t", " \n "})
		for _, m := range want {
			loose.WriteString(space.Draw(t, "space"))
			tok := m.String()
			if m == othello.Pass {
				tok = rapid.SampledFrom([]string{"", "pa", "ps"}).Draw(t, "pass")
			}
			if rapid.Bool().Draw(t, "upper") {
				tok = strings.ToUpper(tok)
			}
			loose.WriteString(tok)
		}
		loose.WriteString(space.Draw(t, "space"))
		again, err := record.ParseOthelloMoveList(loose.String())
		if err != nil {
			t.Fatalf("%q: %v", loose.String(), err)
		}
		if diff := cmp.Diff(want, again.Moves(), cmp.Transformer("nilEmpty", nilEmpty)); diff != "" {
			t.Fatalf("%q: (-want +got):\n%s", loose.String(), diff)
		}
	})
}

func mustPositionAt(t *rapid.T, g *othello.Game, ply int) othello.Position {
	p, ok := g.PositionAt(ply)
	if !ok {
		t.Fatalf("no ply %d", ply)
	}
	return p
}
