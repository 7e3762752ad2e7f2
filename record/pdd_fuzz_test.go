package record_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/record"
)

// normalizePDD is the canonical form of a file, up to what Strict forgives:
// the line terminators, a missing final one, and empty lines at the end.
func normalizePDD(b []byte) string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}

// checkPDDParseError fails unless err is a *ParseError naming a file and a
// line, or an error of the reader (there is none here).
func checkPDDParseError(t *testing.T, err error, file string) {
	t.Helper()
	var pe *record.ParseError
	if !errors.As(err, &pe) || pe.File != file || pe.Line < 1 || pe.Column < 0 || pe.Msg == "" {
		t.Fatalf("error %#v is not a *ParseError in %s with a line", err, file)
	}
	_ = err.Error()
}

func addPDDGridSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
		f.Add([]byte(crlf(s)), true)
		f.Add([]byte(strings.TrimSuffix(s, "\n")), false)
		f.Add([]byte("\xEF\xBB\xBF "+strings.ReplaceAll(s, ",", " , ")), false)
	}
	f.Add([]byte(""), true)
	f.Add([]byte("\n\n"), false)
	f.Add([]byte("0,0,0,0,0,0,0,0,0,0,\n"), false)
}

// Strict-accepted input re-encodes to the same bytes (up to the
// terminators); anything lenient accepts re-encodes to what strict reads
// back to the same value; every fault is a located *ParseError.
func FuzzReadPDDChess(f *testing.F) {
	addPDDGridSeeds(f, pddF1Chess, pddF2Chess, pddS1Chess, pddM1Chess, strings.ReplaceAll(pddM1Chess, "2", "3"))
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		mode := record.PDDLenient
		if strict {
			mode = record.PDDStrict
		}
		c, err := record.ReadPDDChess(bytes.NewReader(data), mode)
		if err != nil {
			checkPDDParseError(t, err, "chess.txt")
			return
		}
		out, _ := c.MarshalText()
		if strict && normalizePDD(out) != normalizePDD(data) {
			t.Fatalf("strict read %q, wrote %q", data, out)
		}
		c2, err := record.ReadPDDChess(bytes.NewReader(out), record.PDDStrict)
		if err != nil || c2 != c {
			t.Fatalf("re-read %q: %v", out, err)
		}
	})
}

func FuzzReadPDDBridges(f *testing.F) {
	addPDDGridSeeds(f, pddF1Bridge, pddF2Bridge, pddS1Bridge, pddM1Bridge, strings.ReplaceAll(pddM1Bridge, "10", "99"))
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		mode := record.PDDLenient
		if strict {
			mode = record.PDDStrict
		}
		b, err := record.ReadPDDBridges(bytes.NewReader(data), mode)
		if err != nil {
			checkPDDParseError(t, err, "bridge.txt")
			return
		}
		out, _ := b.MarshalText()
		if strict && normalizePDD(out) != normalizePDD(data) {
			t.Fatalf("strict read %q, wrote %q", data, out)
		}
		b2, err := record.ReadPDDBridges(bytes.NewReader(out), record.PDDStrict)
		if err != nil || b2 != b {
			t.Fatalf("re-read %q: %v", out, err)
		}
		if _, err := b.Bridges(); err != nil {
			checkPDDParseError(t, err, "bridge.txt")
		}
	})
}

func FuzzReadPDDStepLog(f *testing.F) {
	for _, s := range []string{
		pddSeedStepLog,
		"",
		"W_1_Chess_2,0_2,2",
		"W_1_Chess_2,0_2,2\nB_2_Pass\n",
		" w _ 01 _ chess _ 2,2 _ 2,0 \r\nB_2_CHANGE_2,2_2,0",
		"W_1_Chess_2,0_2,2\nW_2_Bridge_2,0_2,0\n",
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
		f.Add([]byte(crlf(s)), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		mode := record.PDDLenient
		if strict {
			mode = record.PDDStrict
		}
		l, err := record.ReadPDDStepLog(bytes.NewReader(data), mode)
		if err != nil {
			checkPDDParseError(t, err, "stepLog.txt")
			return
		}
		out, err := l.MarshalText()
		if err != nil {
			t.Fatalf("read %q, cannot write: %v", data, err)
		}
		if strict && normalizePDD(out) != normalizePDD(data) {
			t.Fatalf("strict read %q, wrote %q", data, out)
		}
		l2, err := record.ReadPDDStepLog(bytes.NewReader(out), record.PDDStrict)
		if err != nil {
			t.Fatalf("re-read %q: %v", out, err)
		}
		if out2, _ := l2.MarshalText(); !bytes.Equal(out, out2) {
			t.Fatalf("wrote %q, then %q", out, out2)
		}
		// Replaying never panics, and its faults are located.
		for _, rules := range []pdd.Rules{pdd.Course, pdd.Official} {
			if _, err := record.ReplayPDDStepLog(l, rules); err != nil {
				checkPDDParseError(t, err, "stepLog.txt")
			}
		}
	})
}
