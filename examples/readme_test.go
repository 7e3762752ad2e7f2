// Package examples_test keeps README.md true: every Go block of the README
// must stand, line for line, in example code that compiles and runs in the
// tests (the Example functions and the programs under examples/).
package examples_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeLines returns the non-blank lines of code with their indentation
// removed, so that a block quoted from inside a function matches.
func codeLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func contains(haystack, needle []string) bool {
	for i := 0; i+len(needle) <= len(haystack); i++ {
		match := true
		for j := range needle {
			if haystack[i+j] != needle[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func TestReadmeCodeIsExampleCode(t *testing.T) {
	// The files whose code the README may quote.
	exampleSources := []string{
		"../othello/example_test.go",
		"../protocol/tus/example_test.go",
		"othello-random/main.go",
		"othello-host/main.go",
		"othello-best/main.go",
		"geister-best/main.go",
		"darkchess-best/main.go",
		"pdd-best/main.go",
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var sources [][]string
	for _, name := range exampleSources {
		b, err := os.ReadFile(filepath.FromSlash(name))
		if err != nil {
			t.Fatalf("README example source: %v", err)
		}
		sources = append(sources, codeLines(string(b)))
	}
	blocks := 0
	for rest := string(readme); ; {
		_, after, ok := strings.Cut(rest, "```go\n")
		if !ok {
			break
		}
		block, tail, ok := strings.Cut(after, "```")
		if !ok {
			t.Fatal("README.md: unterminated ```go block")
		}
		rest = tail
		blocks++
		lines := codeLines(block)
		found := false
		for _, src := range sources {
			if contains(src, lines) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("README.md Go block %d is not in any example source (%s):\n%s", blocks, strings.Join(exampleSources, ", "), block)
		}
	}
	if blocks == 0 {
		t.Error("README.md has no Go block")
	}
}
