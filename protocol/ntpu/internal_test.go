package ntpu

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReader(t *testing.T) {
	type line struct {
		text    string
		tooLong bool
	}
	in := "a\r\nb\n\n" + strings.Repeat("x", 10) + "\nc\r\r\n" + strings.Repeat("y", 9) + "\r\n" + strings.Repeat("z", 30) + "\r\nlast\r"
	want := []line{{"a", false}, {"b", false}, {"", false}, {"", true}, {"c\r", false}, {strings.Repeat("y", 9), false}, {"", true}, {"last", false}}
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
		lr := newNTPULineReader(r, 9)
		for i, w := range want {
			text, long, err := lr.next()
			if err != nil || text != w.text || long != w.tooLong {
				t.Fatalf("line %d: %q, %v, %v; want %q, %v", i, text, long, err, w.text, w.tooLong)
			}
		}
		if _, _, err := lr.next(); !errors.Is(err, io.EOF) {
			t.Errorf("after the last line: %v", err)
		}
	}
	// A long last line without LF, and an error after a partial line.
	lr := newNTPULineReader(strings.NewReader(strings.Repeat("x", 20)), 9)
	if _, long, err := lr.next(); !long || err != nil {
		t.Errorf("long last line: %v, %v", long, err)
	}
	boom := errors.New("boom")
	lr = newNTPULineReader(io.MultiReader(strings.NewReader("part"), iotest.ErrReader(boom)), 9)
	if _, _, err := lr.next(); !errors.Is(err, boom) {
		t.Errorf("error after a partial line: %v", err)
	}
}

func FuzzLineReader(f *testing.F) {
	f.Add("a\r\nb\n\nccccccccccccccccccc\nd\r", 4)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = 1 + (max&0xff)%64
		lr := newNTPULineReader(strings.NewReader(in), max)
		var got []string
		for {
			text, long, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if long {
				text = "<long>"
			}
			got = append(got, text)
		}
		// The reference: split at LF, drop one CR, mark the long lines.
		var want []string
		rest := in
		for rest != "" {
			l, after, found := strings.Cut(rest, "\n")
			rest = after
			l = strings.TrimSuffix(l, "\r")
			if len(l) > max {
				l = "<long>"
			}
			want = append(want, l)
			if !found {
				break
			}
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("lines %q, want %q", got, want)
		}
	})
}
