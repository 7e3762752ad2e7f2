// Package xmltext makes outside text (a player's name, a status line) safe
// to put in an XML or HTML document: valid, of bounded length, escaped.
package xmltext

import (
	"html"
	"strings"
	"unicode/utf8"
)

// Ellipsis ends a text that was cut.
const Ellipsis = "…"

// allowed reports whether XML 1.0 allows r in a document: tab, newline,
// carriage return and the characters from U+0020 on, but for the
// surrogates and U+FFFE and U+FFFF.
func allowed(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r >= 0xD800 && r <= 0xDFFF:
		return false
	case r == 0xFFFE || r == 0xFFFF:
		return false
	}
	return r <= utf8.MaxRune
}

// Clean returns s with each byte of invalid UTF-8 and each character XML
// forbids (NUL and the other C0 controls but tab, newline and carriage
// return; U+FFFE, U+FFFF) replaced by U+FFFD, cut to at most maxRunes
// characters: a longer text keeps its first maxRunes-1 and ends with an
// ellipsis. maxRunes <= 0 gives "". Clean reads at most maxRunes
// characters of s plus one, however long s is.
func Clean(s string, maxRunes int) string {
	if maxRunes <= 0 {
		return ""
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if n == maxRunes {
			// One character more than fits: cut, with the ellipsis in
			// place of the last that was kept.
			out := b.String()
			_, last := utf8.DecodeLastRuneInString(out)
			return out[:len(out)-last] + Ellipsis
		}
		if r == utf8.RuneError && size <= 1 || !allowed(r) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		n++
		i += size
	}
	return b.String()
}

// Escape is Clean(s, maxRunes) escaped for the text or an attribute value
// of an XML or HTML element.
func Escape(s string, maxRunes int) string {
	return html.EscapeString(Clean(s, maxRunes))
}
