package record_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// addDarkChessSeeds adds a sample of the real board.txt files, when present,
// to f's corpus.
func addDarkChessSeeds(f *testing.F) {
	var files []string
	dir, _ := sharedtest.Lookup("darkchess")
	for _, pattern := range []string{"records/alsov4/8*.txt", "records/v7/1_*.txt", "records/*/*temp.txt", "mgtp/*.txt",
		"legacy/*/server-records/*MoveError*.txt", "legacy/*/server-records/*LongCatch*.txt", "legacy/*/*board.txt"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
}

// normalDarkChessBoard returns what b reads back as once written in profile
// p: the banner and the result line are the profile's. (Result.Text is not
// compared: it is the line written.)
func normalDarkChessBoard(b *record.DarkChessBoard, p record.DarkChessProfile) *record.DarkChessBoard {
	n := *b
	switch p {
	case record.DarkChessServer2021:
		if n.Banner == "" {
			n.Banner = "INITIAL"
		}
	default:
		n.Banner = ""
	}
	if n.Result != nil {
		r := *n.Result
		n.Result = &r
		switch p {
		case record.DarkChessReadMode:
			n.Result = nil
		case record.DarkChessServer2017:
			r.Reason, r.Repetitions, r.Cycle = "", 0, 0
		}
	}
	return &n
}

// FuzzReadDarkChessBoard reads any input without panicking; a fault is a
// *ParseError with a line. A board that reads writes in every profile
// (failing only where the profile cannot say what the board holds, with
// errors.ErrUnsupported, and never in the ReadMode profile but for an
// over-long line), reads back to the same board as the profile keeps it,
// and writes again to the same bytes.
func FuzzReadDarkChessBoard(f *testing.F) {
	for _, s := range []string{
		darkChessHeader,
		darkChessHeader + "* 1. b8(C) c8(C)\n* 2. c6(p)\n",
		"INITIAL\n" + darkChessHeader + "* 1. b8(C)\n* NoMove chan Wins 1,0\n* Comment 0 0\n0. 1\n1. 1\n\n# x #\n",
		strings.ReplaceAll(darkChessMidGame, "\n", "\r\n") + "* 1. a8-b8 a1(P)\r\n* a5 wins\r\n",
		darkChessCornered + "* NoMove a0 Wins 0.000000,1.000000\n",
		darkChessHeader + "* PositionRepetitionDraw,3,4 chan Draw 0.5,0.5\n",
		"",
		"*",
		"* \n* \n",
	} {
		f.Add([]byte(s))
	}
	addDarkChessSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
		if err != nil {
			checkParseError(t, err)
			return
		}
		if _, err := b.View(); err != nil {
			t.Fatalf("View: %v", err)
		}
		for _, p := range []record.DarkChessProfile{record.DarkChessServer2021, record.DarkChessReadMode, record.DarkChessServer2017} {
			out, err := record.AppendDarkChessBoard(nil, b, p)
			if err != nil {
				if !errors.Is(err, errors.ErrUnsupported) || p == record.DarkChessReadMode && !strings.Contains(err.Error(), "line of") {
					t.Fatalf("%s: %v", p, err)
				}
				continue
			}
			back, err := record.ReadDarkChessBoard(bytes.NewReader(out))
			if err != nil {
				t.Fatalf("%s: reading back: %v\n%s", p, err, out)
			}
			if diff := cmp.Diff(normalDarkChessBoard(b, p), back, darkChessBoardCmp, cmpopts.IgnoreFields(record.DarkChessResult{}, "Text")); diff != "" {
				t.Fatalf("%s: read back (-want +got):\n%s\n%s", p, diff, out)
			}
			again, err := record.AppendDarkChessBoard(nil, back, p)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("%s: written again: %v\n%s\n%s", p, err, out, again)
			}
		}
	})
}

// FuzzReadDarkChessMove reads any input without panicking; a move that
// reads writes in the canonical form, which reads back to it.
func FuzzReadDarkChessMove(f *testing.F) {
	for _, s := range []string{"0\nb2\nb3\n0\n", "1\nb7\n0\n0\n", "1\r\nb7\r\n0\r\n0\r\n", "0 a1 a2", "0\nb2\nb2\n0\n", "", "1\n", "0\ne9\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := record.ReadDarkChessMove(bytes.NewReader(data))
		if err != nil {
			checkParseError(t, err)
			if m != darkchess.NoMove {
				t.Fatalf("error with move %v", m)
			}
			return
		}
		out, err := record.AppendDarkChessMove(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := record.ParseDarkChessMove(out)
		if err != nil || back != m {
			t.Fatalf("%q read back as %v, %v; want %v", out, back, err, m)
		}
	})
}
