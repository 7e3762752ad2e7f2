package gat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/botarena/record"
)

// writeRecord writes the game's board.txt into the host's
// RecordDir, named game-<yyyy-MM-dd-HH-mm-ss-SSS>.txt after its start (the
// milliseconds are increased until the name is free), and returns its path.
// A failure is logged; the path is then "".
func (g *geisterGame) writeRecord() string {
	dir := g.s.h.RecordDir
	if dir == "" || g.g == nil {
		return ""
	}
	b, err := record.NewGeisterBoard(g.g, g.rec.Remote[0], g.rec.Remote[1])
	if err != nil {
		g.s.log.Warn("geister host: no board.txt", "game", g.id, "err", err)
		return ""
	}
	b.Date = g.rec.Began
	b.TimeLimit = g.s.time.Main.Truncate(time.Second)
	if !g.firstAsk.IsZero() {
		b.Times = append([]time.Time{g.firstAsk}, g.moveAt...)
	}
	data, err := record.AppendGeisterBoard(nil, b)
	if err != nil {
		g.s.log.Warn("geister host: no board.txt", "game", g.id, "err", err)
		return ""
	}
	t := g.rec.Began
	if t.IsZero() {
		t = time.Now()
	}
	for i := range 1000 {
		at := t.Add(time.Duration(i) * time.Millisecond)
		name := fmt.Sprintf("game-%s-%03d.txt", at.Format("2006-01-02-15-04-05"), at.Nanosecond()/1e6)
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err == nil {
			_, err = f.Write(data)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			g.s.log.Warn("geister host: board.txt", "game", g.id, "file", path, "err", err)
			return ""
		}
		return path
	}
	g.s.log.Warn("geister host: board.txt: no free file name", "game", g.id, "dir", dir)
	return ""
}
