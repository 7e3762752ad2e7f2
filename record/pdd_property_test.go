package record_test

import (
	"bytes"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/pdd/pddtest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// withoutTrailingSkips returns the position of g before any Course skips
// at the end, which a stepLog cannot show.
func withoutTrailingSkips(g *pdd.Game) pdd.Position {
	ms := g.Moves()
	n := len(ms)
	for n > 0 && ms[n-1] == pdd.Pass && g.Rules() == pdd.Course {
		n--
	}
	p, _ := g.PositionAt(n)
	return p
}

// Any game, under either profile, survives the three files: the position
// writes chess.txt and bridge.txt that read back (strictly) to the same
// position, the stepLog reads back to the same steps and replays to the
// same game, and the cross-check passes.
func TestPDDFilesRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]pdd.Rules{pdd.Course, pdd.Official}).Draw(t, "rules")
		g := rapid.OneOf(pddtest.Game(rules), pddtest.CompactGame(rules)).Draw(t, "game")
		crlf := rapid.Bool().Draw(t, "crlf")
		p := g.Position()

		c, b := record.NewPDDChess(p), record.NewPDDBridges(p)
		c.CRLF, b.CRLF = crlf, crlf
		cb, _ := c.MarshalText()
		bb, _ := b.MarshalText()
		c2, err := record.ReadPDDChess(bytes.NewReader(cb), record.PDDStrict)
		if err != nil {
			t.Fatal(err)
		}
		b2, err := record.ReadPDDBridges(bytes.NewReader(bb), record.PDDStrict)
		if err != nil {
			t.Fatal(err)
		}
		if c2 != c || b2 != b {
			t.Fatalf("files read back differently")
		}
		p2, err := record.PDDPosition(c2, b2, p.Setup())
		if err != nil {
			t.Fatal(err)
		}
		if p2 != p {
			t.Fatalf("position from files\n%s\nwant\n%s", p2.Diagram(), p.Diagram())
		}

		l := record.NewPDDStepLog(g)
		l.CRLF = crlf
		lb, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		l2, err := record.ReadPDDStepLog(bytes.NewReader(lb), record.PDDStrict)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Steps) == 0 {
			l.CRLF = false // an empty file has no line end to tell
		}
		if diff := cmp.Diff(l, l2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("stepLog read back (-want +got):\n%s", diff)
		}
		for i, s := range l2.Steps {
			if s.Turn != i+1 {
				t.Fatalf("line %d has turn %d", i+1, s.Turn)
			}
		}
		rg, err := record.CheckPDDStepLog(l2, rules, c2, b2)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rg.Position(), withoutTrailingSkips(g); got != want {
			t.Fatalf("replay gives\n%s\nwant\n%s", got.Diagram(), want.Diagram())
		}
	})
}
