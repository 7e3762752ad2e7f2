package boardsvg

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// maxPictureBytes bounds every picture, whatever texts and options it is
// given.
const maxPictureBytes = 64 << 10

// checkPicture fails t unless s is one well-formed XML element (the whole
// picture read by encoding/xml's decoder, token by token) of at most
// maxPictureBytes.
func checkPicture(t *testing.T, what, s string) {
	t.Helper()
	if len(s) > maxPictureBytes {
		t.Fatalf("%s: %d bytes, more than %d", what, len(s), maxPictureBytes)
	}
	if !utf8.ValidString(s) {
		t.Fatalf("%s: invalid UTF-8", what)
	}
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", what, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 || roots != 1 {
		t.Fatalf("%s: %d root elements, depth %d at the end", what, roots, depth)
	}
}

// FuzzPictures draws each game's picture with any texts and any option
// values (moves and sizes out of range included): nothing panics, and each
// picture is well-formed XML of bounded size.
func FuzzPictures(f *testing.F) {
	f.Add("alice", "bob<1>", "red to move", "14:59.0", uint16(0), 0, false)
	f.Add("a\x00b", "\xff\xfe", "\x01\x1f", "\uFFFE", uint16(0xffff), -5, true)
	f.Add(strings.Repeat("長", 500), strings.Repeat("x", 2000), strings.Repeat("&", 300), "]]>", uint16(1234), math.MaxInt, true)
	dcStart, err := darkchess.ParsePosition("PgXP/-g-G/-X-M/XNXm/N-Xc/--PK/X---/Pm-P b 01020101000001 0")
	if err != nil {
		f.Fatal(err)
	}
	gStart, err := geister.Start(geister.RedsAt(0), geister.RedsAt(69))
	if err != nil {
		f.Fatal(err)
	}
	pStart, err := pdd.NewPosition(pdd.Setup{Turn: pdd.White})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, first, second, status, clock string, move uint16, size int, hide bool) {
		size %= 1 << 20 // a size attribute, not a picture's bytes
		dc := DarkChess(dcStart, DarkChessOptions{Last: darkchess.Move(move), Players: [2]string{first, second},
			Colors: [2]darkchess.Color{darkchess.Color(move % 5), darkchess.Color(move % 7)}, Status: status, Clocks: [2]string{clock, first}, Size: size})
		checkPicture(t, "DarkChess", dc)
		if strings.Count(dc, "…") > 5 {
			t.Fatalf("DarkChess: %d ellipses, at most one per text", strings.Count(dc, "…"))
		}
		checkPicture(t, "Othello", Othello(othello.TUS.Start, OthelloOptions{Last: othello.Move(move), Size: size}))
		checkPicture(t, "Geister", Geister(gStart, GeisterOptions{Last: geister.Move(move), Before: gStart, Hide: [2]bool{hide, !hide}, Size: size}))
		checkPicture(t, "PDD", PDD(pStart, PDDOptions{Last: pdd.Move(move), Size: size}))
	})
}

// TestNamesBounded: a name of a megabyte, with NUL bytes and invalid UTF-8,
// is drawn cut to MaxNameRunes characters and made valid.
func TestNamesBounded(t *testing.T) {
	long := strings.Repeat("n", 1100<<10)
	s := DarkChess(darkchess.Position{}, DarkChessOptions{Colors: [2]darkchess.Color{darkchess.NoColor, darkchess.NoColor}, Players: [2]string{long, "a\x00b\xffc"}, Status: long, Clocks: [2]string{long, ""}})
	checkPicture(t, "DarkChess", s)
	if strings.Contains(s, strings.Repeat("n", MaxStatusRunes)) {
		t.Errorf("a text of %d characters is drawn whole", len(long))
	}
	for _, want := range []string{">first: " + strings.Repeat("n", MaxNameRunes-1) + "…  " + strings.Repeat("n", MaxClockRunes-1) + "…<",
		">" + strings.Repeat("n", MaxStatusRunes-1) + "…<", "second: a\uFFFDb\uFFFDc<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the picture has no %q", want)
		}
	}
}
