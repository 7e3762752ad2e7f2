package geister_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/geister/geistertest"
	"pgregory.net/rapid"
)

func mustStart(t testing.TB, first, second string) geister.Position {
	t.Helper()
	r1, err1 := geister.ParseReds(first)
	r2, err2 := geister.ParseReds(second)
	p, err3 := geister.Start(r1, r2)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustParse(t testing.TB, text string) geister.Position {
	t.Helper()
	p, err := geister.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRedsNumbering checks the index table and the round trips.
func TestRedsNumbering(t *testing.T) {
	for i, want := range map[int]string{0: "ABCD", 1: "ABCE", 4: "ABCH", 5: "ABDE", 14: "ABGH", 15: "ACDE", 34: "AFGH", 35: "BCDE", 36: "BCDF", 54: "BFGH", 55: "CDEF", 65: "DEFG", 69: "EFGH"} {
		if got := geister.RedsAt(i).String(); got != want {
			t.Errorf("RedsAt(%d) = %s, want %s", i, got, want)
		}
	}
	n := 0
	prev := ""
	for i, r := range geister.AllReds() {
		if i != n || r.Index() != i || !r.Valid() || r.String() <= prev {
			t.Errorf("AllReds: %d %s (prev %s)", i, r, prev)
		}
		prev = r.String()
		got, err := geister.ParseReds(strings.ToLower(r.String()))
		if err != nil || got != r {
			t.Errorf("ParseReds(%q) = %s, %v", strings.ToLower(r.String()), got, err)
		}
		n++
	}
	if n != geister.NumReds {
		t.Errorf("AllReds yields %d sets", n)
	}
	for _, i := range []int{-1, 70} {
		if r := geister.RedsAt(i); r.Valid() || r.Index() != -1 || r.String() != "-" {
			t.Errorf("RedsAt(%d) = %s", i, r)
		}
	}
	if r := geister.RedsOf(geister.E, geister.D, geister.C, geister.B, 9); r.String() != "BCDE" || r.Index() != 35 || r.Complement().Has(geister.B) || !r.Complement().Has(geister.A) {
		t.Errorf("RedsOf = %s", r)
	}
	for _, in := range []string{"SET:BCDE", "set:edcb", "EDCB", "bCdE"} {
		if r, err := geister.ParseReds(in); err != nil || r.String() != "BCDE" {
			t.Errorf("ParseReds(%q) = %s, %v", in, r, err)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{{"ABC", 3}, {"ABCDE", 4}, {"AABC", 1}, {"ZZZZ", 0}, {"1234", 0}, {"SET:ABI", 6}, {"", 0}, {"SET:", 4}, {"ABCD ", 4}} {
		var se *geister.SyntaxError
		if _, err := geister.ParseReds(tt.in); !errors.As(err, &se) || se.Offset != tt.offset {
			t.Errorf("ParseReds(%q) error %v, want offset %d", tt.in, err, tt.offset)
		}
	}
	text, err := geister.RedsAt(35).MarshalText()
	var r geister.Reds
	if err != nil || r.UnmarshalText(text) != nil || r != geister.RedsAt(35) {
		t.Errorf("Reds text round trip: %q %v %s", text, err, r)
	}
	if _, err := geister.Reds(7).MarshalText(); err == nil {
		t.Error("MarshalText of 3 ghosts succeeded")
	}
	if r.UnmarshalText([]byte("AB")) == nil {
		t.Error("UnmarshalText(AB) succeeded")
	}
}

func TestSquares(t *testing.T) {
	if s := geister.SquareAt(1, 4); s != 25 || s.String() != "14" || s.X() != 1 || s.Y() != 4 || s.Rotate() != geister.SquareAt(4, 1) {
		t.Errorf("SquareAt(1, 4) = %v", s)
	}
	for _, bad := range [][2]int{{-1, 0}, {6, 0}, {0, 6}, {0, -1}} {
		if s := geister.SquareAt(bad[0], bad[1]); s != geister.NoSquare || s.Valid() || s.String() != "-" || s.Bit() != 0 {
			t.Errorf("SquareAt(%v) = %v", bad, s)
		}
	}
	if geister.Captured.String() != "99" || geister.Escaped.String() != "88" || geister.Captured.Rotate() != geister.Captured || geister.Escaped.Valid() {
		t.Error("Captured/Escaped")
	}
	for s := range geister.Square(geister.NumSquares) {
		got, err := geister.ParseSquare(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v", s, got, err)
		}
		label := s.String()[:1] + "-" + s.String()[1:]
		if got, err := geister.ParseSquare(label); err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v", label, got, err)
		}
		if s.Rotate().Rotate() != s || s.Rotate().X() != 5-s.X() || s.Rotate().Y() != 5-s.Y() {
			t.Errorf("%s.Rotate() = %s", s, s.Rotate())
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{{"", 0}, {"1", 1}, {"145", 2}, {"61", 0}, {"16", 1}, {"99", 0}, {"88", 0}, {"1-6", 2}, {"a1", 0}} {
		var se *geister.SyntaxError
		if _, err := geister.ParseSquare(tt.in); !errors.As(err, &se) || se.Offset != tt.offset {
			t.Errorf("ParseSquare(%q) error %v, want offset %d", tt.in, err, tt.offset)
		}
	}
	b := geister.SquareAt(0, 0).Bit() | geister.SquareAt(5, 1).Bit()
	if b.Count() != 2 || !b.Has(geister.SquareAt(5, 1)) || b.Has(geister.Captured) || b.Rotate() != geister.SquareAt(5, 5).Bit()|geister.SquareAt(0, 4).Bit() {
		t.Errorf("bitboard %v", b)
	}
	if got := b.String(); got != "x.....\n.....x\n......\n......\n......\n......\n" {
		t.Errorf("Bitboard.String() = %q", got)
	}
	var names []string
	for s := range b.Squares() {
		names = append(names, s.String())
		break // stopping early is allowed
	}
	for s := range b.Squares() {
		names = append(names, s.String())
	}
	if strings.Join(names, " ") != "00 00 51" {
		t.Errorf("Squares yields %v", names)
	}
}

func TestMoves(t *testing.T) {
	for g := geister.A; g <= geister.H; g++ {
		for d := geister.North; d <= geister.South; d++ {
			m := geister.NewMove(g, d)
			if !m.Valid() || m.Ghost() != g || m.Direction() != d {
				t.Errorf("NewMove(%s, %s) = %v", g, d, m)
			}
			if got, err := geister.ParseMove(m.String()); err != nil || got != m {
				t.Errorf("ParseMove(%q) = %v, %v", m, got, err)
			}
			if d.Opposite().Opposite() != d || d.Opposite() == d {
				t.Errorf("%s.Opposite() = %s", d, d.Opposite())
			}
		}
	}
	for in, want := range map[string]string{
		"A,NORTH": "A,NORTH", "MOV:A,NORTH": "A,NORTH", "mov:h,east": "H,EAST", "MOV:a,s": "A,SOUTH",
		"B,N": "B,NORTH", "c,w": "C,WEST", "D,West": "D,WEST", "E,e": "E,EAST",
	} {
		if m, err := geister.ParseMove(in); err != nil || m.String() != want {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", in, m, err, want)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{
		{"", 0}, {"MOV:", 4}, {"I,NORTH", 0}, {"A", 1}, {"A;N", 1}, {"A,UP", 2}, {"MOV:A,UP", 6},
		{"Abc,N", 1}, {"A,NORTH ", 2}, {" A,N", 0}, {"MOV:,N", 4}, {"A,\u017f", 2}, {"A,", 2},
	} {
		var se *geister.SyntaxError
		if m, err := geister.ParseMove(tt.in); !errors.As(err, &se) || se.Offset != tt.offset || m != geister.NoMove {
			t.Errorf("ParseMove(%q) = %v, error %v, want offset %d", tt.in, m, err, tt.offset)
		}
	}
	if geister.NoMove.Valid() || geister.NoMove.String() != "none" || geister.NewMove(8, geister.North) != geister.NoMove || geister.NewMove(geister.A, 4) != geister.NoMove {
		t.Error("NoMove")
	}
	if _, err := geister.NoMove.MarshalText(); err == nil {
		t.Error("NoMove.MarshalText succeeded")
	}
	var m geister.Move
	if err := m.UnmarshalText([]byte("MOV:G,W")); err != nil || m != geister.NewMove(geister.G, geister.West) {
		t.Errorf("UnmarshalText = %v, %v", m, err)
	}
	if m.UnmarshalText([]byte("G")) == nil {
		t.Error("UnmarshalText(G) succeeded")
	}
	if geister.Ghost(8).String() != "?" || geister.Direction(4).String() != "?" || geister.Color(2).String() != "invalid color" {
		t.Error("invalid names")
	}
}

func TestStart(t *testing.T) {
	p := mustStart(t, "ABCD", "EFGH")
	if got, want := p.String(), "14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0"; got != want {
		t.Errorf("start = %s, want %s", got, want)
	}
	// The transcripts' first boards: setup BCDE on both sides.
	p = mustStart(t, "BCDE", "BCDE")
	if got := p.View(geister.First).String(); got != "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u" {
		t.Errorf("first view %s", got)
	}
	if p.Turn() != geister.First || p.Ply() != 0 || p.IsOver() || p.Occupied().Count() != 16 {
		t.Errorf("start %s", p)
	}
	if got := p.Board(geister.Second); got != "14B24R34R44R15R25B35B45B41b31r21r11r40r30b20b10b" {
		t.Errorf("second global board %s", got)
	}
	if c, g, ok := p.At(geister.SquareAt(4, 1)); !ok || c != geister.Second || g != geister.A {
		t.Errorf("At(41) = %v %v %v", c, g, ok)
	}
	if _, _, ok := p.At(geister.SquareAt(0, 0)); ok {
		t.Error("At(00) occupied")
	}
	if _, _, ok := p.At(geister.Captured); ok {
		t.Error("At(99) occupied")
	}
	v := p.View(geister.Second)
	if p.Square(2, geister.A) != geister.NoSquare || p.Square(geister.First, 8) != geister.NoSquare || p.GhostColor(geister.First, 8) != geister.Unknown ||
		v.Square(2, geister.A) != geister.NoSquare || v.GhostColor(geister.First, 8) != geister.Unknown {
		t.Error("accessors accept invalid sides or ghosts")
	}
	if _, _, ok := v.At(geister.NoSquare); ok {
		t.Error("View.At(NoSquare) occupied")
	}
	if geister.A.String() != "A" || geister.Red.String() != "red" || geister.Blue.String() != "blue" || geister.Unknown.String() != "unknown" {
		t.Error("ghost names")
	}
	if _, _, ok := p.Escaped(); ok {
		t.Error("escaped at start")
	}
	if _, err := geister.Start(geister.RedsAt(0), geister.Reds(0)); !errors.Is(err, geister.ErrInvalidSetup) {
		t.Errorf("Start with an empty set: %v", err)
	}
	if got, want := p.Diagram(), `  0 1 2 3 4 5
0 . h g f e .
1 . d c b a .
2 . . . . . .
3 . . . . . .
4 . A B C D .
5 . E F G H .
first: reds BCDE, lost 0 red 0 blue
second: reds BCDE, lost 0 red 0 blue
ply 0, first to move
`; got != want {
		t.Errorf("Diagram:\n%s", got)
	}
}

func TestNewPositionErrors(t *testing.T) {
	s := geister.StartSetup(geister.RedsAt(0), geister.Reds(3))
	s.Ghosts[geister.First][geister.B] = geister.SquareAt(1, 4)  // onto A
	s.Ghosts[geister.First][geister.E] = 57                      // not a square
	s.Ghosts[geister.First][geister.A] = geister.Escaped         // red, escaped
	s.Ghosts[geister.Second][geister.H] = geister.Escaped        // a second escape
	s.Ghosts[geister.Second][geister.G] = geister.SquareAt(1, 4) // onto B
	s.Ply = -1
	_, err := geister.NewPosition(s)
	var se *geister.SetupError
	if !errors.Is(err, geister.ErrInvalidSetup) || !errors.As(err, &se) {
		t.Fatalf("NewPosition error = %v", err)
	}
	for _, part := range []string{
		"setup Reds: the second player's red set AB has 2 ghosts",
		"B and g both on 14",
		"E on 57",
		"A escaped but is red",
		"more than one escaped ghost",
		"setup Ply: -1",
	} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not mention %q", err, part)
		}
	}
}

func TestParsePosition(t *testing.T) {
	for _, tt := range []struct {
		in, want string
	}{
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0", ""},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r", "14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0"},
		{"14r24r34r44r15b25b35b45b41B31B21B11B40R30R20R10R 007", "14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 7"},
		// The transcripts' global boards.
		{"88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b 11", ""},
		{"DRW:14B24B34B44B15R25R35R45R41b31r21r11r40r30b20b10b"[4:] + " 300", ""},
	} {
		p, err := geister.ParsePosition(tt.in)
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if err != nil || p.String() != want {
			t.Errorf("ParsePosition(%q) = %s, %v; want %s", tt.in, p, err, want)
		}
	}
	for _, tt := range []struct {
		in     string
		offset int
	}{
		{"", 0},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r0", 48},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r ", 49},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r -1", 49},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r +1", 49},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 4294967296", 49},
		{"64R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0", 0},
		{"16R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0", 1},
		{"14X24R34R44R15B25B35B45B41b31b21b11b40r30r20r10r 0", 2},
		{"14R24R34R44R15B25B35B45B41b31b21b11b40r30r20r10", 47},
	} {
		var se *geister.SyntaxError
		if _, err := geister.ParsePosition(tt.in); !errors.As(err, &se) || se.Offset != tt.offset {
			t.Errorf("ParsePosition(%q) error %v, want offset %d", tt.in, err, tt.offset)
		}
	}
	// Meaning: an unknown colour, a side with 5 reds.
	_, err := geister.ParsePosition("14R24R34R44R15R25B35B45B41u31b21b11b40r30r20r10r 0")
	if !errors.Is(err, geister.ErrInvalidSetup) || !strings.Contains(err.Error(), "colour of a is unknown") || !strings.Contains(err.Error(), "red set ABCDE has 5") {
		t.Errorf("error %v", err)
	}
	// ParseBoard reads the second player's global boards.
	p, err := geister.ParseBoard("13B24R34R44R15R25B35B45B88b31b21b11b40r30r20r10r", geister.Second, 11)
	if err != nil || p.String() != "88b24B34B44B15R25R35R45R42b31r21r11r40r30b20b10b 11" {
		t.Errorf("ParseBoard(LST board) = %s, %v", p, err)
	}
	if _, err := geister.ParseBoard("13B24R34R44R15R25B35B45B88b31b21b11b40r30r20r10r", 5, 11); err == nil {
		t.Error("receiver 5 accepted")
	}
	var q geister.Position
	if err := q.UnmarshalText([]byte("x")); err == nil {
		t.Error("UnmarshalText(x) succeeded")
	}
}

func TestPositionRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := geistertest.AnyPosition().Draw(t, "p")
		if q, err := geister.ParsePosition(p.String()); err != nil || q != p {
			t.Fatalf("ParsePosition(%q) = %s, %v", p, q, err)
		}
		if r, err := geister.NewPosition(p.Setup()); err != nil || r != p {
			t.Fatalf("NewPosition(Setup) = %s, %v", r, err)
		}
		for c := range geister.Color(2) {
			if q, err := geister.ParseBoard(p.Board(c), c, p.Ply()); err != nil || q != p {
				t.Fatalf("ParseBoard(%s, %s) = %s, %v", p.Board(c), c, q, err)
			}
		}
		text, _ := p.MarshalText()
		var u geister.Position
		if err := u.UnmarshalText(text); err != nil || u != p {
			t.Fatalf("UnmarshalText(%q) = %s, %v", text, u, err)
		}
		if p.Ghosts(geister.First)&p.Ghosts(geister.Second) != 0 || p.Occupied().Count() != p.Ghosts(geister.First).Count()+p.Ghosts(geister.Second).Count() {
			t.Fatalf("%s: ghosts overlap", p)
		}
		for c := range geister.Color(2) {
			red, blue := p.Captured(c)
			on := p.Ghosts(c).Count()
			esc := 0
			if ec, _, ok := p.Escaped(); ok && ec == c {
				esc = 1
			}
			if red+blue+on+esc != 8 || red > 4 || blue > 4 || !p.Reds(c).Valid() {
				t.Fatalf("%s: %s has %d+%d captured, %d on the board, %d escaped", p, c, red, blue, on, esc)
			}
		}
	})
}

// TestResults builds each board ending by play and checks the end rules in the Java server's order.
func TestResults(t *testing.T) {
	// The first player's A captures the second player's last blue, then its
	// last red, in positions built for it.
	for _, tt := range []struct {
		name, pos string
		move      geister.Move
		want      geister.Result
	}{
		// Second's blues e,f,g captured; blue h on (3,3), A below it at (3,4).
		{"NoBlueGhost", "34B99r99r99r15R99b99b99b99r99r99r41r99b99b99b33b 0", geister.NewMove(geister.A, geister.North),
			geister.Result{Reason: geister.NoBlueGhost, Winner: geister.First}},
		// Second's reds b,c,d captured; red a on (3,3): capturing it loses.
		{"NoRedGhost", "34B99r99r99r15R99b99b99b33r99r99r99r40b30b20b10b 0", geister.NewMove(geister.A, geister.North),
			geister.Result{Reason: geister.NoRedGhost, Winner: geister.Second}},
		// The first player's blue A on exit (0,0) escapes (sideways).
		{"ChessEscape", "00B24R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 10", geister.NewMove(geister.A, geister.West),
			geister.Result{Reason: geister.ChessEscape, Winner: geister.First}},
		// The second player's blue a on its exit (5,0), (0,5) for the first.
		{"ChessEscape second", "14B24R34R44R15R25B35B45B05b31r21r11r40r30b20b10b 11", geister.NewMove(geister.A, geister.East),
			geister.Result{Reason: geister.ChessEscape, Winner: geister.Second}},
	} {
		p := mustParse(t, tt.pos)
		if p.IsOver() {
			t.Fatalf("%s: %s already over", tt.name, p)
		}
		q, err := p.Play(tt.move)
		if err != nil || q.Result() != tt.want || !q.IsOver() {
			t.Errorf("%s: %s after %s: %v, %v", tt.name, q, tt.move, q.Result(), err)
		}
		if q.NumLegalMoves() != 0 || len(q.AppendLegalMoves(nil)) != 0 || q.IsLegal(tt.move) {
			t.Errorf("%s: moves after the end", tt.name)
		}
		if _, err := q.Play(tt.move); !errors.Is(err, geister.ErrGameOver) {
			t.Errorf("%s: move after the end: %v", tt.name, err)
		}
	}
	// A ply-limit draw, and a win on the last ply beats it.
	rules := geister.Rules{Name: "short", PlyLimit: 11}
	p := mustParse(t, "00B24R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 10")
	if r := rules.Result(p); r.Reason != geister.Unfinished || rules.IsOver(p) {
		t.Errorf("ply 10 of 11: %v", r)
	}
	q := p.PlayUnchecked(geister.NewMove(geister.B, geister.North))
	if r := rules.Result(q); r != (geister.Result{Reason: geister.GamePlyLimitDraw, Draw: true}) || !rules.IsOver(q) || q.IsOver() {
		t.Errorf("ply 11 of 11: %v", r)
	}
	q = p.PlayUnchecked(geister.NewMove(geister.A, geister.West))
	if r := rules.Result(q); r.Reason != geister.ChessEscape {
		t.Errorf("escape on the last ply: %v", r)
	}
	for r, s := range map[geister.Result]string{
		{}: "unfinished",
		{Reason: geister.ChessEscape, Winner: geister.Second}: "second wins (ChessEscape)",
		{Reason: geister.GamePlyLimitDraw, Draw: true}:        "draw (GamePlyLimitDraw)",
		{Reason: geister.TimeOut, Winner: geister.First}:      "first wins (TimeOut)",
		{Reason: geister.Reason(42), Winner: geister.First}:   "first wins (invalid reason)",
	} {
		if r.String() != s {
			t.Errorf("%#v.String() = %q, want %q", r, r, s)
		}
	}
}

func TestReasons(t *testing.T) {
	for r := geister.Unfinished; r <= geister.AgreedDraw; r++ {
		if r.IsDraw() != (r == geister.GamePlyLimitDraw || r == geister.AgreedDraw) {
			t.Errorf("%v.IsDraw() = %v", r, r.IsDraw())
		}
		for _, s := range []string{r.String(), strings.ToUpper(r.String()), strings.ToLower(r.String())} {
			if got, err := geister.ParseReason(s); err != nil || got != r {
				t.Errorf("ParseReason(%q) = %v, %v", s, got, err)
			}
		}
	}
	for _, s := range []string{"", "Timeout2", "ChessEscap"} {
		if _, err := geister.ParseReason(s); err == nil {
			t.Errorf("ParseReason(%q) succeeded", s)
		}
	}
	for r, want := range map[geister.Result][2]float64{
		{}: {0, 0}, {Reason: geister.NoRedGhost, Winner: geister.First}: {1, 0},
		{Reason: geister.Resign, Winner: geister.Second}: {0, 1}, {Reason: geister.GamePlyLimitDraw, Draw: true}: {0.5, 0.5},
		{Reason: geister.AgreedDraw, Draw: true}: {0.5, 0.5},
	} {
		if a, b := r.Score(); a != want[0] || b != want[1] {
			t.Errorf("%v.Score() = %v, %v", r, a, b)
		}
	}
	if geister.Lose.String() != "lose" || geister.Retry.String() != "retry" || geister.Policy(9).String() != "invalid policy" {
		t.Error("policy names")
	}
	if geister.GAT.PlyLimit != 300 || geister.NTPU.PlyLimit != 200 || geister.GAT.IllegalMove != geister.Lose || geister.NTPU.IllegalMove != geister.Lose {
		t.Error("presets")
	}
}

func TestPlayErrors(t *testing.T) {
	start := mustStart(t, "BCDE", "BCDE")
	// Blue A on exit (0,0); red B on exit (5,0), moving at ply 10.
	exits := mustParse(t, "00B50R30R44R15R25B35B45B41r31r21r11r40b32b20b10b 10")
	captured := mustParse(t, "99b24R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 10")
	over := mustParse(t, "88b24R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 11")
	for _, tt := range []struct {
		p      geister.Position
		m      geister.Move
		sent   error
		reason string
	}{
		{start, geister.NewMove(geister.A, geister.South), geister.ErrIllegalMove, "own ghost E"},
		{start, geister.NewMove(geister.E, geister.South), geister.ErrIllegalMove, "leaves the board"},
		{start, geister.NoMove, geister.ErrIllegalMove, "not a move"},
		{exits, geister.NewMove(geister.B, geister.North), geister.ErrIllegalMove, "red ghost cannot escape"},
		{exits, geister.NewMove(geister.B, geister.East), geister.ErrIllegalMove, "red ghost cannot escape"},
		{exits, geister.NewMove(geister.C, geister.North), geister.ErrIllegalMove, "leaves the board"},
		{captured, geister.NewMove(geister.A, geister.North), geister.ErrIllegalMove, "A was captured"},
		{over, geister.NewMove(geister.B, geister.North), geister.ErrGameOver, "game is over"},
	} {
		got, err := tt.p.Play(tt.m)
		var me *geister.MoveError
		if !errors.Is(err, tt.sent) || !errors.As(err, &me) || !strings.Contains(me.Reason, tt.reason) || got != tt.p || me.Move != tt.m {
			t.Errorf("%s Play(%s) = %v; want %v with %q", tt.p, tt.m, err, tt.sent, tt.reason)
		}
	}
	// Both spellings of the escape are the same move.
	west, errW := exits.Play(geister.NewMove(geister.A, geister.West))
	north, errN := exits.Play(geister.NewMove(geister.A, geister.North))
	if errW != nil || errN != nil || west != north || !west.IsOver() {
		t.Errorf("escape: %s %v / %s %v", west, errW, north, errN)
	}
	if m := exits.Normalize(geister.NewMove(geister.A, geister.North)); m != geister.NewMove(geister.A, geister.West) {
		t.Errorf("Normalize = %s", m)
	}
	if m := exits.Normalize(geister.NewMove(geister.B, geister.North)); m != geister.NewMove(geister.B, geister.North) {
		t.Errorf("Normalize of a red = %s", m)
	}
	if !exits.IsEscape(geister.NewMove(geister.A, geister.North)) || exits.IsEscape(geister.NewMove(geister.A, geister.South)) {
		t.Error("IsEscape")
	}
	// Captures names the ghost and its colour.
	p := mustParse(t, "14B24R34R44R15R25B35B45B13r31r21r11r40b30b20b10b 0")
	if g, col, ok := p.Captures(geister.NewMove(geister.A, geister.North)); !ok || g != geister.A || col != geister.Red {
		t.Errorf("Captures = %v %v %v", g, col, ok)
	}
	if _, _, ok := p.Captures(geister.NewMove(geister.B, geister.North)); ok {
		t.Error("Captures of a plain step")
	}
	if _, _, ok := exits.Captures(geister.NewMove(geister.A, geister.West)); ok {
		t.Error("Captures of an escape")
	}
	if _, _, ok := p.Captures(geister.NewMove(geister.A, geister.South)); ok {
		t.Error("Captures of an illegal move")
	}
}

func TestGame(t *testing.T) {
	start := mustStart(t, "BCDE", "BCDE")
	g := geister.NewGame(geister.GAT, start)
	if g.IsOver() || g.Ply() != 0 || g.Position() != start || g.Turn() != geister.First || g.Rules().Name != "gat" {
		t.Fatal("new game")
	}
	if err := g.Play(geister.NewMove(geister.A, geister.South)); !errors.Is(err, geister.ErrIllegalMove) || g.Ply() != 0 || g.IsOver() {
		t.Fatalf("illegal move: %v, ply %d", err, g.Ply())
	}
	if err := g.Play(geister.NewMove(geister.H, geister.East)); err != nil {
		t.Fatal(err)
	}
	if g.View(geister.Second).String() != "14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u00u" {
		t.Errorf("second view %s", g.View(geister.Second))
	}
	if p, ok := g.PositionAt(0); !ok || p != start {
		t.Error("PositionAt(0)")
	}
	if _, ok := g.PositionAt(2); ok {
		t.Error("PositionAt(2) exists")
	}
	moves := g.Moves()
	moves[0] = geister.NoMove
	if g.Moves()[0] != geister.NewMove(geister.H, geister.East) {
		t.Error("Moves is not a copy")
	}
	if err := g.Forfeit(geister.Second, geister.NoBlueGhost); err == nil {
		t.Error("forfeit by NoBlueGhost accepted")
	}
	if err := g.Forfeit(geister.Second, geister.TimeOut); err != nil {
		t.Fatal(err)
	}
	r, over := g.Result()
	if !over || r != (geister.Result{Reason: geister.TimeOut, Winner: geister.First}) {
		t.Errorf("result %v", r)
	}
	if err := g.Play(geister.NewMove(geister.A, geister.North)); !errors.Is(err, geister.ErrGameOver) {
		t.Errorf("move after forfeit: %v", err)
	}
	if err := g.Forfeit(geister.First, geister.Disconnect); !errors.Is(err, geister.ErrGameOver) {
		t.Errorf("second forfeit: %v", err)
	}
	if !g.Reject() {
		t.Error("Reject after the end reports the game going on")
	}

	// Policies: Lose ends the game, Retry does not.
	g = geister.NewGame(geister.NTPU, start)
	if !g.Reject() {
		t.Error("Reject under Lose")
	}
	if r, _ := g.Result(); r != (geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}) {
		t.Errorf("result %v", r)
	}
	retry := geister.GAT
	retry.IllegalMove = geister.Retry
	g = geister.NewGame(retry, start)
	if g.Reject() || g.IsOver() {
		t.Error("Reject under Retry ended the game")
	}

	// The escape written North is recorded sideways; the game ends.
	exits := mustParse(t, "00B50R34R44R15R25B35B45B41r31r21r11r40b30b20b10b 10")
	g = geister.NewGame(geister.GAT, exits)
	if err := g.Play(geister.NewMove(geister.A, geister.North)); err != nil {
		t.Fatal(err)
	}
	if r, over := g.Result(); !over || r.Reason != geister.ChessEscape || g.Moves()[0] != geister.NewMove(geister.A, geister.West) || g.Ply() != 11 {
		t.Errorf("escape game: %v %v ply %d", r, g.Moves(), g.Ply())
	}
	if p, ok := g.PositionAt(10); !ok || p != exits {
		t.Error("PositionAt(10) of a mid-game start")
	}
	// A start at the ply limit is a draw at once; a decided start is over.
	if r, over := geister.NewGame(geister.Rules{PlyLimit: 5}, exits).Result(); !over || r.Reason != geister.GamePlyLimitDraw {
		t.Errorf("start past the limit: %v", r)
	}
	if !geister.NewGame(geister.GAT, g.Position()).IsOver() {
		t.Error("decided start")
	}
}

// TestGamesEnd plays random games to the end under GAT: every game ends, by
// the board or at ply 300, and the result matches the position.
func TestGamesEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := geister.NewGame(geister.GAT, geistertest.Start().Draw(t, "start"))
		var buf [32]geister.Move
		for !g.IsOver() {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if len(moves) == 0 {
				t.Fatalf("%s: no moves and not over", g.Position())
			}
			i := rapid.IntRange(0, len(moves)-1).Draw(t, "i")
			if err := g.Play(moves[i]); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := g.Result()
		if first, second := r.Score(); first+second != 1 {
			t.Fatalf("%v scores %v + %v", r, first, second)
		}
		p := g.Position()
		switch {
		case p.IsOver():
			if r != p.Result() || g.Ply() > 300 {
				t.Fatalf("result %v for %s", r, p)
			}
		case r.Reason != geister.GamePlyLimitDraw || !r.Draw || g.Ply() != 300:
			t.Fatalf("result %v at ply %d", r, g.Ply())
		}
	})
}

// TestNoPanics: zero values and any byte as a move, on any position, never
// panic.
func TestNoPanics(t *testing.T) {
	var g geister.Game
	if err := g.Play(geister.NewMove(geister.A, geister.North)); !errors.Is(err, geister.ErrGameOver) {
		t.Errorf("zero Game accepted a move: %v", err)
	}
	if _, ok := g.PositionAt(0); ok || g.Ply() != 0 || len(g.Moves()) != 0 {
		t.Error("zero Game has positions")
	}
	var zero geister.Position
	var zv geister.View
	_ = zero.String() + zero.Diagram() + zv.String() + zero.View(geister.Second).String()
	_, _ = geister.Perft(zero, 3), geister.Determinize(zv, nil)
	zv.AppendLegalMoves(nil)
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(geistertest.AnyPosition(), rapid.Just(zero)).Draw(t, "p")
		m := geister.Move(rapid.Byte().Draw(t, "move"))
		q := p.PlayUnchecked(m)
		_, _ = p.Play(m)
		_ = q.String() + q.Diagram() + q.View(geister.First).String() + q.Board(geister.Second)
		q.AppendLegalMoves(nil)
		q.NumLegalMoves()
		q.Result()
		p.Normalize(m)
		p.IsEscape(m)
		p.Captures(m)
		geister.Perft(q, 2)
		geister.Determinize(q.View(geister.Second), nil)
	})
}

// TestAgreeDraw checks a draw by agreement: it ends a game in play,
// whatever the board, and not one that is over.
func TestAgreeDraw(t *testing.T) {
	p, err := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	if err != nil {
		t.Fatal(err)
	}
	g := geister.NewGame(geister.GAT, p)
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	if res, over := g.Result(); !over || res != (geister.Result{Reason: geister.AgreedDraw, Draw: true}) {
		t.Errorf("after AgreeDraw: %v, over %v", res, over)
	}
	if err := g.AgreeDraw(); !errors.Is(err, geister.ErrGameOver) {
		t.Errorf("a second AgreeDraw: %v, want ErrGameOver", err)
	}
}
