package record_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// addTestdataSeeds adds the real transcripts, when present, to f's corpus.
func addTestdataSeeds(f *testing.F, add func(data string)) {
	dir, _ := sharedtest.Lookup("othello")
	files, _ := filepath.Glob(filepath.Join(dir, "*gamelog*.txt"))
	more, _ := filepath.Glob(filepath.Join(dir, "client-001-server-game-*.txt"))
	for _, name := range append(files, more...) {
		if data, err := os.ReadFile(name); err == nil {
			add(string(data))
		}
	}
}

// checkParseError fails unless err is a *ParseError with a line.
func checkParseError(t *testing.T, err error) {
	t.Helper()
	var pe *record.ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 0 || pe.Msg == "" {
		t.Fatalf("error %#v is not a *ParseError with a line", err)
	}
	_ = err.Error()
}

func FuzzReadOthelloTranscript(f *testing.F) {
	for _, s := range []string{
		shortTrans,
		passTrans,
		strings.ReplaceAll(shortTrans, "\n", "\r\n") + "\r\n\n",
		"B:a,W:b",
		"B:a,W:b\n4,2,1",
		"B:a,W:b\n4,2,-1\n",
		"B:a,W:b\n4,2,1\n\n5,4,-1\n",
		"B:a,W:b\n4,2,1\r",
		"B:a,W:b\r\r\n",
		"B:,W:,W:\n",
		"",
		"\n",
		"4,2,1\n",
		shortTrans + "0,0,1\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Add([]byte("B:a,W:b\n3,2,1\n2,2,-1\n"), true)
	addTestdataSeeds(f, func(data string) { f.Add([]byte(data), false) })
	f.Fuzz(func(t *testing.T, data []byte, standard bool) {
		start := othello.Position{}
		if standard {
			start = othello.Standard.Start
		}
		tr, err := record.ReadOthelloTranscript(bytes.NewReader(data), start)
		if err != nil {
			if tr != nil {
				t.Fatalf("a transcript along with %v", err)
			}
			checkParseError(t, err)
			return
		}
		if _, err := tr.Game(); err != nil {
			t.Fatalf("read transcript does not replay: %v", err)
		}
		var out bytes.Buffer
		if err := record.WriteOthelloTranscript(&out, tr); err != nil {
			t.Fatalf("read transcript not written: %v", err)
		}
		again, err := record.ReadOthelloTranscript(bytes.NewReader(out.Bytes()), start)
		if err != nil {
			t.Fatalf("written transcript not read: %v\n%q", err, out.String())
		}
		if again.Black != tr.Black || again.White != tr.White || again.Start != tr.Start || !slices.Equal(again.Moves, tr.Moves) {
			t.Fatalf("read %+v, wrote %q, read back %+v", tr, out.String(), again)
		}
		var out2 bytes.Buffer
		if err := record.WriteOthelloTranscript(&out2, again); err != nil || !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("written twice: %q then %q, %v", out.String(), out2.String(), err)
		}
	})
}

func FuzzParseOthelloMoveList(f *testing.F) {
	for _, s := range []string{
		"f5d6c3d3c4",
		"F5 D6\r\nc3\td3 c4\n",
		shortList,
		shortList + "a1",
		passList + "e3",
		passList + "pae3",
		passList + "PS E3",
		passList + "pa",
		passList + "papa",
		"pa",
		"f5d",
		"f5i9",
		"",
		" \n",
		"f5\xff",
	} {
		f.Add(s)
	}
	addTestdataSeeds(f, func(data string) {
		tr, err := record.ReadOthelloTranscript(strings.NewReader(data), othello.Position{})
		if err != nil {
			return
		}
		if g, err := tr.Game(); err == nil {
			if b, err := record.AppendOthelloMoveList(nil, g); err == nil {
				f.Add(string(b))
			}
		}
	})
	f.Fuzz(func(t *testing.T, s string) {
		g, err := record.ParseOthelloMoveList(s)
		if err != nil {
			if g != nil {
				t.Fatalf("a game along with %v", err)
			}
			checkParseError(t, err)
			return
		}
		list, err := record.AppendOthelloMoveList(nil, g)
		if err != nil {
			t.Fatalf("read game not written: %v", err)
		}
		again, err := record.ParseOthelloMoveList(string(list))
		if err != nil {
			t.Fatalf("written list %q not read: %v", list, err)
		}
		if !slices.Equal(again.Moves(), recorded(g)) || again.Position() != mustAt(t, g, len(recorded(g))) {
			t.Fatalf("read %v, wrote %q, read back %v", g.Moves(), list, again.Moves())
		}
		if list2, err := record.AppendOthelloMoveList(nil, again); err != nil || !bytes.Equal(list, list2) {
			t.Fatalf("written twice: %q then %q, %v", list, list2, err)
		}
	})
}

func mustAt(t *testing.T, g *othello.Game, ply int) othello.Position {
	t.Helper()
	p, ok := g.PositionAt(ply)
	if !ok {
		t.Fatalf("no ply %d", ply)
	}
	return p
}
