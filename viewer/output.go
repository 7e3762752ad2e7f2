package viewer

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/botarena/botarena/internal/fsguard"
)

// What the replay page shows of the programs' output, beside the move list,
// is bounded: at most maxOutputFiles files for one ply, maxPlyOutputBytes
// of them in all (shared equally, the end of each file kept), the record's
// directory looked at for at most maxOutputDirEntries entries.
const (
	maxPlyOutputBytes   = 64 << 10
	maxOutputFiles      = 4
	maxOutputDirEntries = 256
)

// outputPart is one file of program output as the replay page shows it.
type outputPart struct {
	Name string `json:"name"` // the file, relative to the record's directory
	Text string `json:"text"` // its text (the end of it when Cut > 0)
	Cut  int64  `json:"cut"`  // the bytes of its start left out
	// Mover reports that it is the output of the program that made the
	// ply shown.
	Mover bool `json:"mover"`
}

// outputReply is the answer of /replay/output: the programs' output for one
// ply, and a note on what it is (tied to the ply, or the whole game's).
type outputReply struct {
	Ply   int          `json:"ply"`
	Note  string       `json:"note"`
	Parts []outputPart `json:"parts"`
}

// outputFile is a file of program output to show: its name in the record's
// directory, and whether the ply's mover printed it.
type outputFile struct {
	name  string
	mover bool
}

// plyOutput finds the program output of ply (0 for the start) of the
// replay p of the record at real (a resolved path): the files its game's
// referee leaves beside its record, and a note on them.
func (v *Viewer) plyOutput(real string, p *parsedReplay, ply int) outputReply {
	dir := filepath.Dir(real)
	out := outputReply{Ply: ply}
	var files []outputFile
	switch p.def.Name {
	case "pdd":
		// logs/<turn>-<W|B>.stdout and .stderr: what the program printed
		// on the turn of stepLog.txt's line <turn>.
		if ply == 0 {
			out.Note = "The start: no program has moved yet."
			return out
		}
		mover := ""
		if m := p.rp.Moves[ply-1]; m != "" {
			mover = m[:1]
		}
		for _, c := range []string{"W", "B"} {
			for _, ext := range []string{"stdout", "stderr"} {
				files = append(files, outputFile{name: filepath.Join("logs", strconv.Itoa(ply)+"-"+c+"."+ext), mover: c == mover})
			}
		}
		slices.SortStableFunc(files, func(a, b outputFile) int { return boolRank(b.mover) - boolRank(a.mover) })
		out.Note = fmt.Sprintf("What the programs printed on turn %d (logs/ of the game's directory).", ply)
		parts := v.readOutput(real, dir, files)
		if len(parts) == 0 {
			out.Note = fmt.Sprintf("No program output kept for turn %d: the program printed nothing, or its logs were dropped to keep them within their bound (logs/W.truncated, logs/B.truncated).", ply)
			for _, c := range []string{"W", "B"} {
				parts = append(parts, v.readOutput(real, dir, []outputFile{{name: filepath.Join("logs", c+".truncated")}})...)
			}
		}
		out.Parts = parts
		return out
	case "darkchess":
		// first.log and second.log: all each engine printed, not stamped
		// with plies.
		mover := -1
		if ply > 0 {
			mover = (ply - 1) % 2
		}
		files = []outputFile{{name: "first.log", mover: mover == 0}, {name: "second.log", mover: mover == 1}}
		if mover == 1 {
			files[0], files[1] = files[1], files[0]
		}
		out.Note = "What each engine printed in the whole game, not tied to plies: the end of each file, the mover's first."
	default:
		// <player>.stdout and .stderr, written when the game ended.
		files = v.outputFilesIn(dir, ".stdout", ".stderr")
		out.Note = "What the programs printed in the whole game, not tied to plies: the end of each file."
	}
	out.Parts = v.readOutput(real, dir, files)
	if len(out.Parts) == 0 {
		out.Note = "The record's directory holds no program output for this game."
	}
	return out
}

// boolRank is 1 for true, 0 for false.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// outputFilesIn lists the regular files of dir (at most
// maxOutputDirEntries entries looked at) whose names end in one of exts,
// in order of name, at most maxOutputFiles of them.
func (v *Viewer) outputFilesIn(dir string, exts ...string) []outputFile {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxOutputDirEntries)
	var names []string
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		for _, ext := range exts {
			if strings.HasSuffix(e.Name(), ext) {
				names = append(names, e.Name())
				break
			}
		}
	}
	slices.Sort(names)
	var out []outputFile
	for _, n := range names[:min(len(names), maxOutputFiles)] {
		out = append(out, outputFile{name: n})
	}
	return out
}

// readOutput reads the files of dir (the directory of the record at real)
// that exist and may be read, the end of each, within maxPlyOutputBytes in
// all. A file may be read when the replay page may read it (under a record
// directory, symbolic links resolved), or when it is in the directory of a
// record a game finished with, or below it.
func (v *Viewer) readOutput(real, dir string, files []outputFile) []outputPart {
	type found struct {
		f    outputFile
		path string
	}
	var ok []found
	for _, f := range files[:min(len(files), maxOutputFiles)] {
		path, err := resolve(filepath.Join(dir, f.name))
		if err != nil || path == real || !v.mayReadBeside(real, path) {
			continue
		}
		ok = append(ok, found{f, path})
	}
	var parts []outputPart
	for _, f := range ok {
		text, cut, err := readTail(f.path, int64(maxPlyOutputBytes/len(ok)))
		if err != nil {
			continue
		}
		parts = append(parts, outputPart{Name: filepath.ToSlash(f.f.name), Text: text, Cut: cut, Mover: f.f.mover})
	}
	return parts
}

// mayReadBeside reports whether the file at path (resolved) may be shown
// as program output of the record at real: the replay page may read it, or
// real is a record a game finished with and path is in its directory or
// below.
func (v *Viewer) mayReadBeside(real, path string) bool {
	if v.mayRead(path) {
		return true
	}
	v.mu.Lock()
	game := v.records[real] > 0
	v.mu.Unlock()
	if !game {
		return false
	}
	rel, err := filepath.Rel(filepath.Dir(real), path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readTail reads the last max bytes of the regular file at path (opened
// without waiting, so that a named pipe cannot hold the request) as text:
// invalid UTF-8 shown as U+FFFD, a character cut at the start dropped. cut
// is the bytes of the file's start left out.
func readTail(path string, max int64) (text string, cut int64, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|fsguard.NoWait, 0)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	if !info.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s: not a regular file", path)
	}
	if info.Size() > max {
		cut = info.Size() - max
		if _, err := f.Seek(cut, io.SeekStart); err != nil {
			return "", 0, err
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return "", 0, err
	}
	if cut > 0 {
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
			b = b[1:]
			cut++
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), cut, nil
}

// serveOutput answers the programs' output for one ply of a replay as
// JSON: ?file= as for the page, game, and ply (0 for the start). An upload
// has none: its answer says so. An error is {"error": "..."} with its
// status.
func (v *Viewer) serveOutput(w http.ResponseWriter, r *http.Request) {
	p, src, ply, release, err := v.replayPly(r)
	if err != nil {
		v.replyJSONError(w, err)
		return
	}
	defer release()
	out := outputReply{Ply: ply, Note: "No program output with an upload: an uploaded record comes without its game's directory."}
	if src.real != "" {
		out = v.plyOutput(src.real, p, ply)
	}
	b, err := json.Marshal(out)
	if err != nil {
		v.replyJSONError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}
