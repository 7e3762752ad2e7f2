package record

import (
	"fmt"
	"io"
	"strings"

	"github.com/botarena/botarena/geister"
)

// AppendGeisterServerLog appends l to dst as the Java geister server writes
// its per-game log, LF line ends: one "player=<0|1>,<command>" line
// per command of l.Commands, in order (only Player and Text are used), then
// "winner=<0|1|2>" if l.Winner is 0, 1 or 2 (-1 writes no winner line, as
// after a time out, a disconnect or an illegal move). The server would log
// exactly what it received; a command holding a line end, or a player or
// winner out of range, is an error, and dst comes back unchanged.
func AppendGeisterServerLog(dst []byte, l *GeisterServerLog) ([]byte, error) {
	if l.Winner < -1 || l.Winner > 2 {
		return dst, fmt.Errorf("record: geister server log: winner %d (want 0, 1, 2, or -1 for none)", l.Winner)
	}
	out := dst
	for i, c := range l.Commands {
		if c.Player != geister.First && c.Player != geister.Second {
			return dst, fmt.Errorf("record: geister server log: command %d: player %d (want 0 or 1)", i+1, c.Player)
		}
		if strings.ContainsAny(c.Text, "\r\n") {
			return dst, fmt.Errorf("record: geister server log: command %d %q holds a line end", i+1, c.Text)
		}
		out = append(out, "player="...)
		out = append(out, '0'+byte(c.Player), ',')
		out = append(out, c.Text...)
		out = append(out, '\n')
	}
	if l.Winner >= 0 {
		out = append(out, "winner="...)
		out = append(out, '0'+byte(l.Winner), '\n')
	}
	return out, nil
}

// WriteGeisterServerLog writes l to w as AppendGeisterServerLog does, in one
// Write.
func WriteGeisterServerLog(w io.Writer, l *GeisterServerLog) error {
	b, err := AppendGeisterServerLog(nil, l)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
