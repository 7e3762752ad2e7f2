package record_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

// darkChessHeader is a board.txt up to the time line, from the opening.
const darkChessHeader = "* 1:16pm Jan 13, 2022\n* chan vs ai\n* 1 2 2 2 2 2 5 1 2 2 2 2 2 5\n" +
	"* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n* X X X X\n" +
	"* first 0\n* time 900\n"

// darkChessMidGame is a mid-game start: red K on a8, black k on d1, a red P
// and a black p face-down on a1 and b1; red to move.
const darkChessMidGame = "* 3:6pm February 16, 2017\n* Player1(a5) vs Player2(a0)\n* 0 0 0 0 0 0 1 0 0 0 0 0 0 1\n" +
	"* K - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* X X - k\n" +
	"* first 0\n* time 900\n"

func mustReadDarkChess(t *testing.T, text string) *record.DarkChessBoard {
	t.Helper()
	b, err := record.ReadDarkChessBoard(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return b
}

func TestReadDarkChessBoardVariants(t *testing.T) {
	game := "* 1. b8(C) c8(C)\n* 2. c6(p) c7(G)\n* 3. c8-c6\n"
	plies := []darkchess.Ply{
		{Move: darkchess.Flip(darkchess.B8), Piece: darkchess.RedCannon}, {Move: darkchess.Flip(darkchess.C8), Piece: darkchess.RedCannon},
		{Move: darkchess.Flip(darkchess.C6), Piece: darkchess.BlackPawn}, {Move: darkchess.Flip(darkchess.C7), Piece: darkchess.RedGuard},
		{Move: darkchess.NewMove(darkchess.C8, darkchess.C6)},
	}
	base := &record.DarkChessBoard{Date: "1:16pm Jan 13, 2022", First: "chan", Second: "ai", Start: darkchess.Opening,
		FirstColor: darkchess.Red, Time: 900, Plies: plies}
	with := func(f func(b *record.DarkChessBoard)) *record.DarkChessBoard {
		b := *base
		f(&b)
		return &b
	}
	for _, tc := range []struct {
		name, text string
		want       *record.DarkChessBoard
	}{
		{"bare", darkChessHeader + game, base},
		{"CRLF, no final line end", strings.ReplaceAll(darkChessHeader+game, "\n", "\r\n") + "* Comment 0 0\r\n0. 5\r\n1. 6", with(func(b *record.DarkChessBoard) { b.Times = []int64{5, 6} })},
		{"banner, result, timestamps, then the engine's output", "INITIAL\n" + darkChessHeader + game +
			"* TimeOut chan Wins 1.000000,0.000000\n* Comment 0 0\n0. 10\n1. 10\n2. 11\n\n# 1 2 #\n0. 99\nanything\n",
			with(func(b *record.DarkChessBoard) {
				b.Banner, b.Times = "INITIAL", []int64{10, 10, 11}
				b.Result = &record.DarkChessResult{Winner: 1, Reason: "TimeOut", Text: "TimeOut chan Wins 1.000000,0.000000"}
			})},
		{"2017 result, spacing", strings.Replace(darkChessHeader, "chan vs ai", "a0 vs a5", 1) + "* 1.  b8(C)\tc8(C)  \n* 2. c6(p) c7(G) \n* 3. c8-c6 \n* a5 wins\n",
			with(func(b *record.DarkChessBoard) {
				b.First, b.Second = "a0", "a5"
				b.Result = &record.DarkChessResult{Winner: 2, Text: "a5 wins"}
			})},
		{"Player1 names, first unknown, ms time", strings.NewReplacer("chan vs ai", "Player1(x y) vs Player2(z)", "first 0", "first 2", "time 900", "time 900000").Replace(darkChessHeader) + game,
			with(func(b *record.DarkChessBoard) {
				b.First, b.Second, b.FirstColor, b.Time = "x y", "z", darkchess.NoColor, 900000
			})},
		{"free-text players, no plies", strings.Replace(darkChessHeader, "chan vs ai", "just me", 1),
			with(func(b *record.DarkChessBoard) { b.First, b.Second, b.Plies = "just me", "", nil })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mustReadDarkChess(t, tc.text)
			if diff := cmp.Diff(tc.want, b, darkChessBoardCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadDarkChessBoardErrors(t *testing.T) {
	h := darkChessHeader
	for _, tc := range []struct {
		name, text string
		line, col  int
		msg        string
		is         error
	}{
		{"empty", "", 1, 0, "empty", record.ErrSyntax},
		{"banner only", "INITIAL\n", 2, 0, "date: the file ends", record.ErrSyntax},
		{"no counts", "* d\n* a vs b\n", 3, 0, "counts: the file ends", record.ErrSyntax},
		{"not a header", strings.Replace(h, "* chan", "chan", 1), 2, 1, `players: the line must start with "* "`, record.ErrSyntax},
		{"13 counts", strings.Replace(h, "2 5\n", "2\n", 1), 3, 0, "counts: 13 numbers, want 14", record.ErrSyntax},
		{"too many guards", strings.Replace(h, "* 1 2", "* 1 3", 1), 3, 5, "counts: 3 face-down G, but a side has 2", record.ErrSyntax},
		{"count not a number", strings.Replace(h, "* 1 2", "* 1 z", 1), 3, 5, `counts: "z" for G`, record.ErrSyntax},
		{"bad cell", strings.Replace(h, "* X X X X\n", "* X Y X X\n", 1), 4, 5, `row 8: b8 is "Y"`, record.ErrSyntax},
		{"short row", strings.Replace(h, "* X X X X\n", "* X X X\n", 1), 4, 0, "row 8: 3 cells", record.ErrSyntax},
		{"pool mismatch", strings.Replace(h, "* X X X X\n", "* X X X -\n", 1), 3, 0, "start position: counts sum to 32 but 31 squares are face-down", record.ErrSyntax},
		{"first not a number", strings.Replace(h, "first 0", "first red", 1), 12, 9, `first: "red" is not an integer`, record.ErrSyntax},
		{"no first", strings.Replace(h, "first 0", "second 0", 1), 12, 3, "first: want", record.ErrSyntax},
		{"time", strings.Replace(h, "time 900", "time -1", 1), 13, 8, `time: "-1" is not a number`, record.ErrSyntax},
		{"mid-game start without colour", strings.Replace(darkChessMidGame, "first 0", "first 2", 1), 12, 0, "start position: colours are unassigned", record.ErrSyntax},
		{"move number", h + "* 2. a1(K)\n", 14, 3, "move number 2, want 1", record.ErrSyntax},
		{"three plies", h + "* 1. a1(K) a2(k) a3(p)\n", 14, 0, "move 1: 3 plies", record.ErrSyntax},
		{"bad ply", h + "* 1. a1(K) zz\n", 14, 12, `ply 2 "zz": not a ply`, record.ErrSyntax},
		{"bare flip", h + "* 1. a1\n", 14, 6, "a flip must name the piece", record.ErrSyntax},
		{"illegal ply", h + "* 1. a1(K) a1-a2\n", 14, 12, "ply 2 a1-a2", darkchess.ErrIllegalMove},
		{"flip of a piece not in the pool", h + "* 1. a1(K) a2(K)\n", 14, 12, "ply 2 a2(K)", darkchess.ErrIllegalMove},
		{"first flip of the wrong colour", strings.Replace(h, "first 0", "first 1", 1) + "* 1. a1(K)\n", 12, 9, "first: 1 (black), but the first flip, a1(K) on line 14, is red", record.ErrSyntax},
		{"one-ply line not last", h + "* 1. a1(K)\n* 2. a2(k) a3(p)\n", 15, 3, "move 1: the previous move line holds one ply", record.ErrSyntax},
		{"result name", h + "* 1. a1(K)\n* NoMove ai Wins 1,0\n", 15, 10, `the scores say the first player "chan" won, not "ai"`, record.ErrSyntax},
		{"result reason", h + "* Foo chan Wins 1,0\n", 14, 3, `unknown reason "Foo"`, record.ErrSyntax},
		{"result word", h + "* NoMove chan Draw 1,0\n", 14, 15, `"Draw" does not go with the reason NoMove`, record.ErrSyntax},
		{"result scores", h + "* NoEatFlipDraw chan Draw 1,0\n", 14, 27, "do not go with", record.ErrSyntax},
		{"2017 winner", h + "* nobody wins\n", 14, 3, `the winner "nobody" is neither player`, record.ErrSyntax},
		{"repetition", h + "* PositionRepetitionDraw,3 chan Draw 0.5,0.5\n", 14, 3, "want PositionRepetitionDraw,<count>,<cycle>", record.ErrSyntax},
		{"move after the comment", h + "* Comment 0 0\n* 1. a1(K)\n", 15, 3, "move line after the result or comment line", record.ErrSyntax},
		{"garbage line", h + "* garbage\n", 14, 0, `result: want "<reason> <name>`, record.ErrSyntax},
		{"two comments", h + "* Comment 0 0\n* Comment 0 0\n", 15, 3, `want "* Comment" or a timestamp`, record.ErrSyntax},
		{"timestamp index", h + "0. 1\n2. 3\n", 15, 1, "timestamp 2, want 1", record.ErrSyntax},
		{"line too long", h + "* Comment " + strings.Repeat("0", 5000) + "\n", 14, 0, "line longer than 4096 bytes", record.ErrLineTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := record.ReadDarkChessBoard(strings.NewReader(tc.text))
			var pe *record.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %+v, %v; want a *ParseError", b, err)
			}
			if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(pe.Msg, tc.msg) || !errors.Is(err, tc.is) {
				t.Errorf("got %v (line %d, column %d, %v)\nwant line %d, column %d, %q, %v", err, pe.Line, pe.Column, pe.Err, tc.line, tc.col, tc.msg, tc.is)
			}
		})
	}
	if _, err := record.ReadDarkChessBoard(nil); err == nil {
		t.Error("nil reader: no error")
	}
}

// TestDarkChessProfiles writes one finished game in the three profiles.
func TestDarkChessProfiles(t *testing.T) {
	b := mustReadDarkChess(t, strings.Replace(darkChessMidGame, "Player1(a5) vs Player2(a0)", "a5 vs a0", 1)+
		"* 1. a8-b8 a1(P)\n* 2. b8-c8 b1(p)\n* 3. c8-d8 d1-c1\n* 4. a1-a2 c1-d1\n* 5. a2-a3 d1-c1\n* 6. d8-d7\n"+
		"* MoveError a5 Wins 1.000000,0.000000\n* Comment 0 0\n0. 1\n1. 2\n")
	g, err := b.Game(darkchess.NTU2021, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g.Result(); r != (darkchess.Result{Reason: darkchess.BadMove, Winner: darkchess.Red}) {
		t.Fatalf("result %v", r)
	}
	body := "* 0 0 0 0 0 0 1 0 0 0 0 0 0 1\n* K - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* X X - k\n" +
		"* first 0\n* time 900\n* 1. a8-b8 a1(P)\n* 2. b8-c8 b1(p)\n* 3. c8-d8 d1-c1\n* 4. a1-a2 c1-d1\n* 5. a2-a3 d1-c1\n* 6. d8-d7\n"
	for _, tc := range []struct {
		p    record.DarkChessProfile
		want string
	}{
		{record.DarkChessServer2021, "INITIAL\n* 3:6pm February 16, 2017\n* a5 vs a0\n" + body + "* MoveError a5 Wins 1.000000,0.000000\n* Comment 0 0\n0. 1\n1. 2\n"},
		{record.DarkChessReadMode, "* 3:6pm February 16, 2017\n* Player1(a5) vs Player2(a0)\n" + body + "* Comment 0 0\n0. 1\n1. 2\n"},
		{record.DarkChessServer2017, strings.ReplaceAll("* 3:6pm February 16, 2017\n* a5 vs a0\n"+body+"* a5 wins\n* Comment 0 0\n0. 1\n1. 2\n", "\n", "\r\n")},
	} {
		var buf bytes.Buffer
		if err := record.WriteDarkChessBoard(&buf, b, tc.p); err != nil {
			t.Fatalf("%s: %v", tc.p, err)
		}
		if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.p, diff)
		}
		back := mustReadDarkChess(t, buf.String())
		if len(back.Plies) != len(b.Plies) || back.Start != b.Start || back.First != "a5" {
			t.Errorf("%s: read back %+v", tc.p, back)
		}
	}
	// The 2017 line read back keeps its winner but has no reason, which the
	// 2021 grammar needs.
	b2017 := mustReadDarkChess(t, strings.ReplaceAll(string(appendDarkChessBoard(t, b, record.DarkChessServer2017)), "\r", ""))
	if _, err := record.AppendDarkChessBoard(nil, b2017, record.DarkChessServer2021); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("2017 result in the 2021 grammar: %v", err)
	}
	if record.DarkChessProfile(7).String() != "DarkChessProfile(7)" || record.DarkChessReadMode.String() != "readmode" {
		t.Error("profile names")
	}
	if _, err := record.AppendDarkChessBoard(nil, b, 7); err == nil {
		t.Error("unknown profile: no error")
	}
}

// TestDarkChessMidGameStart starts a game from a mid-game board.txt: the
// record's flips are dealt as named, the rest from the source, and the game
// goes on to its end with bare moves.
func TestDarkChessMidGameStart(t *testing.T) {
	b := mustReadDarkChess(t, darkChessMidGame+"* 1. a8-b8 a1(P)\n")
	if b.Start.Turn() != darkchess.Red || b.Start.Pool(darkchess.RedPawn) != 1 || b.Start.At(darkchess.D1) != darkchess.BlackKing {
		t.Fatalf("start %s", b.Start)
	}
	v, err := b.View()
	if err != nil || v.Turn() != darkchess.Red || len(v.History) != 2 || v.At(darkchess.A1) != darkchess.RedPawn {
		t.Fatalf("view %v, %v", v, err)
	}
	g, err := b.Game(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	start, _ := g.PositionAt(0)
	if start.DealAt(darkchess.A1) != darkchess.RedPawn || start.DealAt(darkchess.B1) != darkchess.BlackPawn {
		t.Fatalf("deal %s", start)
	}
	if err := g.Play(darkchess.Flip(darkchess.B1)); err != nil || g.Position().At(darkchess.B1) != darkchess.BlackPawn {
		t.Fatalf("flip b1: %v", err)
	}
	// Without a source, a bare flip has no piece to reveal.
	g, _ = b.Game(darkchess.NTU2021, nil)
	if err := g.Play(darkchess.Flip(darkchess.B1)); !errors.Is(err, darkchess.ErrNoDeal) {
		t.Errorf("bare flip without a deal: %v", err)
	}
}

// darkChessCornered is a game in which red's last piece, a pawn in a
// corner, must step next to a black guard, which takes it.
const darkChessCornered = "* d\n* a5 vs a0\n* 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n" +
	"* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - - - -\n* - g - -\n* P - - -\n" +
	"* first 0\n* time 900\n* 1. a1-a2 b2-a2\n"

// TestDarkChessGameResults checks the result line against the replay.
func TestDarkChessGameResults(t *testing.T) {
	mid := darkChessMidGame + "* 1. a8-b8 a1(P)\n"
	for _, tc := range []struct {
		name, text string
		rules      darkchess.Rules
		want       darkchess.Result
		err        error
	}{
		{"time-out of the player to move", mid + "* TimeOut a0 Wins 0,1\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.TimeOut, Winner: darkchess.Black}, nil},
		{"resign", mid + "* Resign a0 Wins 0,1\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.Resign, Winner: darkchess.Black}, nil},
		{"agreed draw", mid + "* AgreedDraw a5 Draw 0.500000,0.500000\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.AgreedDraw, Draw: true}, nil},
		{"agreed draw after the end", darkChessCornered + "* AgreedDraw a5 Draw 0.5,0.5\n", darkchess.NTU2021, darkchess.Result{}, record.ErrResultMismatch},
		// A referee charges a fault when it sees it: an engine that dies
		// before acknowledging its own ply loses having just moved.
		{"time-out of the player who just moved", mid + "* TimeOut a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.TimeOut, Winner: darkchess.Red}, nil},
		{"garbage from the player who just moved", mid + "* MoveError a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.BadMove, Winner: darkchess.Red}, nil},
		{"handshake fault of the player not to move", darkChessMidGame + "* TimeOut a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.TimeOut, Winner: darkchess.Red}, nil},
		{"fault after the end", darkChessCornered + "* TimeOut a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{}, record.ErrResultMismatch},
		{"NoMove of a game in play", mid + "* NoMove a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{}, record.ErrResultMismatch},
		{"2017 draw of a game in play", mid + "* Draws\n", darkchess.Classic, darkchess.Result{}, record.ErrResultMismatch},
		{"2017 win of a game in play", mid + "* a5 wins\n", darkchess.Classic, darkchess.Result{}, nil},
		{"forfeit before the first flip", darkChessHeader + "* TimeOut ai Wins 0,1\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.TimeOut, Winner: darkchess.NoColor}, nil},
		{"second player's fault before the first flip", darkChessHeader + "* TimeOut chan Wins 1,0\n", darkchess.NTU2021, darkchess.Result{}, record.ErrResultMismatch},
		{"NoMove", darkChessCornered + "* NoMove a0 Wins 0,1\n", darkchess.NTU2021, darkchess.Result{Reason: darkchess.NoPieces, Winner: darkchess.Black}, nil},
		{"NoMove of the other winner", darkChessCornered + "* NoMove a5 Wins 1,0\n", darkchess.NTU2021, darkchess.Result{}, record.ErrResultMismatch},
		{"2017 result of an ended game", darkChessCornered + "* a0 wins\n", darkchess.Classic, darkchess.Result{Reason: darkchess.NoPieces, Winner: darkchess.Black}, nil},
		{"2017 result of an ended game, wrong winner", darkChessCornered + "* a5 wins\n", darkchess.Classic, darkchess.Result{}, record.ErrResultMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mustReadDarkChess(t, tc.text)
			g, err := b.Game(tc.rules, nil)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err == nil {
				if r, _ := g.Result(); r != tc.want {
					t.Errorf("result %v, want %v", r, tc.want)
				}
			}
		})
	}
}

func TestAppendDarkChessBoardRefusals(t *testing.T) {
	read := func() *record.DarkChessBoard {
		return mustReadDarkChess(t, darkChessHeader+"* 1. b8(C) c8(C)\n* NoMove chan Wins 1.000000,0.000000\n")
	}
	for _, tc := range []struct {
		name   string
		p      record.DarkChessProfile
		change func(b *record.DarkChessBoard)
		is     error
	}{
		{"line break in a name", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.First = "a\nb" }, errors.ErrUnsupported},
		{"line break in the date", record.DarkChessReadMode, func(b *record.DarkChessBoard) { b.Date = "x\r" }, errors.ErrUnsupported},
		{"vs in a name", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.First = "a vs b" }, errors.ErrUnsupported},
		{"space in a result name", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.First = "a b"; b.Result.Text = "" }, errors.ErrUnsupported},
		{"move number as a 2017 winner", record.DarkChessServer2017, func(b *record.DarkChessBoard) { b.First = "12." }, errors.ErrUnsupported},
		{"banner like a header", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.Banner = "* x" }, errors.ErrUnsupported},
		{"long date", record.DarkChessReadMode, func(b *record.DarkChessBoard) { b.Date = strings.Repeat("x", 5000) }, errors.ErrUnsupported},
		{"illegal ply", record.DarkChessReadMode, func(b *record.DarkChessBoard) {
			b.Plies = append(b.Plies, darkchess.Ply{Move: darkchess.NewMove(darkchess.A1, darkchess.A2)})
		}, darkchess.ErrIllegalMove},
		{"bare flip", record.DarkChessReadMode, func(b *record.DarkChessBoard) { b.Plies[1].Piece = darkchess.NoPiece }, nil},
		{"wrong first colour", record.DarkChessReadMode, func(b *record.DarkChessBoard) { b.FirstColor = darkchess.Black }, nil},
		{"start with a counter", record.DarkChessReadMode, func(b *record.DarkChessBoard) {
			s := b.Start.Setup()
			s.Quiet = 3
			b.Start, _ = darkchess.NewPosition(s)
		}, errors.ErrUnsupported},
		{"draw with a winner", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.Result.Reason = "NoEatFlipDraw" }, nil},
		{"unknown reason", record.DarkChessServer2021, func(b *record.DarkChessBoard) { b.Result.Reason = "Foo" }, nil},
		{"winner 3", record.DarkChessServer2017, func(b *record.DarkChessBoard) { b.Result.Winner = 3 }, nil},
		{"negative time", record.DarkChessServer2017, func(b *record.DarkChessBoard) { b.Time = -1 }, nil},
		{"negative timestamp", record.DarkChessServer2017, func(b *record.DarkChessBoard) { b.Times = []int64{-1} }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := read()
			tc.change(b)
			out, err := record.AppendDarkChessBoard([]byte("x"), b, tc.p)
			if err == nil || string(out) != "x" || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("got %q, %v; want an error wrapping %v and nothing appended", out, err, tc.is)
			}
		})
	}
	if _, err := record.AppendDarkChessBoard(nil, nil, record.DarkChessReadMode); err == nil {
		t.Error("nil board: no error")
	}
	// Without the kept text, the canonical line.
	b := read()
	b.Result.Text = ""
	if out := string(appendDarkChessBoard(t, b, record.DarkChessServer2021)); !strings.Contains(out, "\n* NoMove chan Wins 1.000000,0.000000\n") {
		t.Errorf("canonical result line missing:\n%s", out)
	}
}

func TestNewDarkChessBoard(t *testing.T) {
	if record.NewDarkChessBoard(nil, "a", "b") != nil {
		t.Error("nil game: not nil")
	}
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(3, 4)))
	b := record.NewDarkChessBoard(g, "a", "b")
	if b.FirstColor != darkchess.NoColor || b.Start != darkchess.Opening || b.Result != nil {
		t.Errorf("fresh game: %+v", b)
	}
	if out := string(appendDarkChessBoard(t, b, record.DarkChessReadMode)); !strings.Contains(out, "* first 2\n* time 0\n* Comment 0 0\n") {
		t.Errorf("fresh game:\n%s", out)
	}
	if err := g.Forfeit(darkchess.NoColor, darkchess.TimeOut); err != nil {
		t.Fatal(err)
	}
	b = record.NewDarkChessBoard(g, "a", "b")
	if out := string(appendDarkChessBoard(t, b, record.DarkChessServer2021)); !strings.Contains(out, "\n* TimeOut b Wins 0.000000,1.000000\n") {
		t.Errorf("forfeit before the first flip:\n%s", out)
	}
}

// TestDarkChessAgreedDrawRecord: a draw two persons agreed to is written
// "* AgreedDraw <first> Draw 0.500000,0.500000" and replays to the same
// result; under the 2017 grammar it is "* Draws".
func TestDarkChessAgreedDrawRecord(t *testing.T) {
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(5, 6)))
	for _, m := range []darkchess.Move{darkchess.Flip(darkchess.B8), darkchess.Flip(darkchess.C8)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	b := record.NewDarkChessBoard(g, "alice", "bob")
	out := string(appendDarkChessBoard(t, b, record.DarkChessServer2021))
	if !strings.Contains(out, "\n* AgreedDraw alice Draw 0.500000,0.500000\n") {
		t.Fatalf("agreed draw:\n%s", out)
	}
	back := mustReadDarkChess(t, out)
	g2, err := back.Game(darkchess.NTU2021, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g2.Result(); r != (darkchess.Result{Reason: darkchess.AgreedDraw, Draw: true}) || g2.Ply() != 2 {
		t.Errorf("replayed: %v after %d plies", r, g2.Ply())
	}
	if out := string(appendDarkChessBoard(t, b, record.DarkChessServer2017)); !strings.Contains(out, "\r\n* Draws\r\n") {
		t.Errorf("agreed draw, 2017 grammar:\n%s", out)
	}
}

func TestDarkChessDate(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		p    record.DarkChessProfile
		want string
	}{
		{time.Date(2022, 1, 13, 13, 16, 0, 0, time.UTC), record.DarkChessServer2021, "1:16pm Jan 13, 2022"},
		{time.Date(2022, 1, 10, 9, 7, 0, 0, time.UTC), record.DarkChessServer2021, "9:7am Jan 10, 2022"},
		{time.Date(2017, 1, 16, 12, 16, 0, 0, time.UTC), record.DarkChessReadMode, "0:16pm January 16, 2017"},
		{time.Date(2017, 1, 16, 0, 41, 0, 0, time.UTC), record.DarkChessServer2017, "12:41am Jan 16  2017"},
		{time.Date(2017, 1, 16, 15, 1, 0, 0, time.UTC), record.DarkChessServer2017, "3:01pm Jan 16  2017"},
	} {
		if got := record.DarkChessDate(tc.t, tc.p); got != tc.want {
			t.Errorf("%v in %s: %q, want %q", tc.t, tc.p, got, tc.want)
		}
	}
}

func TestDarkChessMove(t *testing.T) {
	for _, tc := range []struct {
		text string
		want darkchess.Move
	}{
		{"0\nb2\nb3\n0\n", darkchess.NewMove(darkchess.B2, darkchess.B3)},
		{"1\nb7\n0\n0\n", darkchess.Flip(darkchess.B7)},
		{"1\r\nB7\r\nb7\r\n", darkchess.Flip(darkchess.B7)},
		{"  0 a1 a2", darkchess.NewMove(darkchess.A1, darkchess.A2)},
		{"0\nd8\nd7\n0\nextra words\n", darkchess.NewMove(darkchess.D8, darkchess.D7)},
	} {
		m, err := record.ParseDarkChessMove([]byte(tc.text))
		if err != nil || m != tc.want {
			t.Errorf("%q: %v, %v; want %v", tc.text, m, err, tc.want)
		}
	}
	for _, tc := range []struct {
		text      string
		line, col int
		msg       string
		is        error
	}{
		{"", 1, 0, "ends before the kind", record.ErrSyntax},
		{"0\nb2\n", 3, 0, "ends before the destination", record.ErrSyntax},
		{"2\nb2\nb3\n0\n", 1, 1, `kind (0 move, 1 flip) "2"`, record.ErrSyntax},
		{"0\n  e2\nb3\n0\n", 2, 3, `from square "e2"`, record.ErrSyntax},
		{"0\nb2\nb9\n0\n", 3, 1, `destination "b9"`, record.ErrSyntax},
		{"0\nb2\nb2\n0\n", 3, 1, "a flip is written 1 b2 0 0", record.ErrSyntax},
		{strings.Repeat(" ", 5000), 1, 0, "longer than 4096 bytes", record.ErrLineTooLong},
	} {
		m, err := record.ReadDarkChessMove(strings.NewReader(tc.text))
		var pe *record.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(pe.Msg, tc.msg) || !errors.Is(err, tc.is) || m != darkchess.NoMove {
			t.Errorf("%q: %v, %v; want line %d, column %d, %q", tc.text, m, err, tc.line, tc.col, tc.msg)
		}
	}
	var buf bytes.Buffer
	if err := record.WriteDarkChessMove(&buf, darkchess.NewMove(darkchess.B2, darkchess.B3)); err != nil || buf.String() != "0\nb2\nb3\n0\n" {
		t.Errorf("move: %q, %v", buf.String(), err)
	}
	buf.Reset()
	if err := record.WriteDarkChessMove(&buf, darkchess.Flip(darkchess.B7)); err != nil || buf.String() != "1\nb7\n0\n0\n" {
		t.Errorf("flip: %q, %v", buf.String(), err)
	}
	if err := record.WriteDarkChessMove(&buf, darkchess.NoMove); err == nil {
		t.Error("NoMove: no error")
	}
	if _, err := record.ReadDarkChessMove(nil); err == nil {
		t.Error("nil reader: no error")
	}
}
