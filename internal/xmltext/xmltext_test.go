package xmltext

import (
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"alice", 10, "alice"},
		{"", 10, ""},
		{"alice", 0, ""},
		{"alice", 5, "alice"},
		{"alice", 4, "ali…"},
		{"alice", 1, "…"},
		{"a\x00b", 10, "a\uFFFDb"},
		{"a\x01\x1f\x7fb", 10, "a\uFFFD\uFFFD\x7fb"},
		{"tab\there\nnl\rcr", 20, "tab\there\nnl\rcr"},
		{"bad\xffutf8\xc3", 20, "bad\uFFFDutf8\uFFFD"},
		{"\uFFFE\uFFFF", 5, "\uFFFD\uFFFD"},
		{"黑白棋手", 3, "黑白…"},
		{"黑白棋手", 4, "黑白棋手"},
	} {
		if got := Clean(c.in, c.max); got != c.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// FuzzEscape checks that any text, escaped, is valid UTF-8, has at most
// the characters asked (an entity counted as its character), and reads as
// an XML element's text.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"alice", "a\x00b", "<&>\"'", "\xff\xfe", "黑白", strings.Repeat("x", 300)} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max % 1000
		c := Clean(s, max)
		if !utf8.ValidString(c) {
			t.Fatalf("Clean(%q, %d) = %q: invalid UTF-8", s, max, c)
		}
		if n := utf8.RuneCountInString(c); n > max && !(max <= 0 && n == 0) {
			t.Fatalf("Clean(%q, %d) has %d characters", s, max, n)
		}
		doc := "<t>" + Escape(s, max) + "</t>"
		var v struct {
			Text string `xml:",chardata"`
		}
		if err := xml.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("Escape(%q, %d): %q is not XML: %v", s, max, doc, err)
		}
		// XML reads a carriage return as a newline.
		if want := strings.ReplaceAll(strings.ReplaceAll(c, "\r\n", "\n"), "\r", "\n"); v.Text != want {
			t.Fatalf("Escape(%q, %d) reads back as %q, want %q", s, max, v.Text, want)
		}
	})
}
