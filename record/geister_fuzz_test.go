package record_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// geisterParseError fails unless err is a *ParseError with a line.
func geisterParseError(t *testing.T, err error) {
	t.Helper()
	var pe *record.ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 0 || pe.Msg == "" || pe.Err == nil {
		t.Fatalf("error %#v is not a *ParseError with a line", err)
	}
	_ = err.Error()
}

func FuzzReadGeisterBoard(f *testing.F) {
	for _, s := range []string{
		geisterExampleBoard,
		strings.ReplaceAll(geisterExampleBoard, "\n", "\r\n"),
		strings.ReplaceAll(geisterExampleBoard, "* ", ""),
		"1. A,NORTH\n",
		"1. a,n b,w\n2. A,S\n1. 0 0\n2. 1\n",
		"* 3 4 4 2\n* - h g - - -\n* - d c b a -\n* - - - - - -\n* - - - - - -\n* - A B C D -\n* - - F G H -\n* 1. A,NORTH\n",
		"* -hgfe-\n* -dcba-\n* ------\n* ------\n* -ABCD-\n* -EFGH-\n* GamePlyLimitDraw x Draw 0.5,0.5\n",
		"* 3:6pm Jun 1 2014\n* x vs y\n1. A,NORTH\n0. 1403548816\n1. 1403548817\n* red - abcd\n",
		"* TimeOut y wins 0,1\n1. B,NORTH\n",
		"",
		"*\n* \n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := record.ReadGeisterBoard(strings.NewReader(text))
		if err != nil {
			geisterParseError(t, err)
			return
		}
		var out bytes.Buffer
		if err := record.WriteGeisterBoard(&out, b); err != nil {
			t.Fatalf("a record read cannot be written: %v", err)
		}
		b2, err := record.ReadGeisterBoard(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("the written record does not read: %v\n%s", err, out.String())
		}
		if diff := cmp.Diff(b, b2, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("parse, write, parse disagree (-first +second):\n%s\n%s", diff, out.String())
		}
		var out2 bytes.Buffer
		if err := record.WriteGeisterBoard(&out2, b2); err != nil || out2.String() != out.String() {
			t.Fatalf("writing is not canonical: %v\n%s\n%s", err, out.String(), out2.String())
		}
	})
}

func FuzzReadGeisterServerLog(f *testing.F) {
	dir, _ := sharedtest.Lookup("geister")
	files, _ := filepath.Glob(filepath.Join(dir, "server-log-*.txt"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"player=0,SET:ABCD\nplayer=1,SET:abcd\nplayer=0,MOV:A,N\nplayer=1,MOV:Abc,w\n",
		"player=0,SET:ABCD\r\nplayer=1,SET:EFGH\r\nplayer=0,MOV:A,S\r\nplayer=0,MOV:A,N\r\n",
		"player=0,SET:AAAA\n",
		"player=1,MOV:,N\nwinner=2\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := record.ReadGeisterServerLog(strings.NewReader(text))
		if err != nil {
			geisterParseError(t, err)
			return
		}
		g, err := l.Game()
		if err != nil {
			if l.Reds[0].Valid() && l.Reds[1].Valid() {
				t.Fatalf("a log read does not replay: %v", err)
			}
			return
		}
		if r, over := g.Result(); l.Result.Reason != 0 && (!over || r != l.Result) {
			t.Fatalf("log result %v, game %v %v", l.Result, r, over)
		}
	})
}
