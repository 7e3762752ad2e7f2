package lineio_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/botarena/botarena/internal/lineio"
)

func readAll(r *lineio.Reader) ([]string, error) {
	var lines []string
	for {
		l, err := r.ReadLine()
		if err != nil {
			return lines, err
		}
		lines = append(lines, l)
	}
}

func TestReadLine(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr error
	}{
		{"a\nbb\r\n\nccc", []string{"a", "bb", "", "ccc"}, io.EOF},
		{"12345\n", []string{"12345"}, io.EOF},
		{"12345\r\n", []string{"12345"}, io.EOF},
		{"123456\n", nil, lineio.ErrLineTooLong},
		{"12345\r\r\n", nil, lineio.ErrLineTooLong},
		{"ok\n" + strings.Repeat("x", 100), []string{"ok"}, lineio.ErrLineTooLong},
		{"123456", nil, lineio.ErrLineTooLong},
		{"", nil, io.EOF},
		{"last\r", []string{"last"}, io.EOF},
	}
	for _, tt := range tests {
		for _, wrap := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.OneByteReader} {
			got, err := readAll(lineio.NewReader(wrap(strings.NewReader(tt.in)), 5))
			if !errors.Is(err, tt.wantErr) || strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("%q: got %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		}
	}
}

func TestOtherErrorsPassThrough(t *testing.T) {
	boom := errors.New("boom")
	r := lineio.NewReader(io.MultiReader(strings.NewReader("part"), iotest.ErrReader(boom)), 10)
	if _, err := r.ReadLine(); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}
