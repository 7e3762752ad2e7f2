package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botarena/botarena/internal/fsguard"
	"github.com/botarena/botarena/internal/xmltext"
)

// gameFormat names the record files the viewer reads for a game.
type gameFormat struct {
	Name, Title, Formats string
	Ready                bool // the game has a Replay
}

// gameFormats lists, per game of defs, the record files the replay page
// accepts.
func gameFormats(defs []*Game) []gameFormat {
	var out []gameFormat
	for _, d := range defs {
		f := d.Formats
		if f == "" {
			f = "its records"
		}
		out = append(out, gameFormat{Name: d.Name, Title: d.Title, Formats: f, Ready: d.Replay != nil})
	}
	return out
}

// formatsText lists the formats of the games of defs in one text.
func formatsText(defs []*Game) string {
	var b strings.Builder
	for i, f := range gameFormats(defs) {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", f.Title, f.Formats)
	}
	return b.String()
}

// recordFile is a record file the index found: one game, or a part of one.
type recordFile struct {
	Path     string // as the replay link gives it: the record directory joined with Rel
	Rel      string // the path within the record directory
	Title    string // the title of the game whose Replay reads it
	Size     int64
	Modified time.Time
	Summary  recordSummary // the game, players, result and plies
}

// recordSummary is what the index learns of a record file when it checks
// it: the game whose Replay reads it ("" for none) and what that replay
// holds, to list the game and to tell a whole game's record from its parts.
type recordSummary struct {
	Game    string    // the game whose Replay reads it (Game.Name), "" for none
	Players [2]string // as the record names them, "" where it does not
	Result  string    // the result in words, "" if the record has none
	Plies   int
}

// maxIndexResultBytes bounds a result as the index lists it (and
// remembers it).
const maxIndexResultBytes = 200

// completeness ranks a record by what it holds of its game: its players'
// names (2) and its moves (1). A game's fullest record is its entry on the
// index.
func (s recordSummary) completeness() int {
	n := 0
	if s.Players != [2]string{} {
		n += 2
	}
	if s.Plies > 0 {
		n++
	}
	return n
}

// partOf reports whether the record s is a part of the game whose record
// is whole, both files of one directory: a record of the same game that
// holds less of it (no names, or no moves), with the same plies or none
// (a PDD chess.txt: the tiles at the end; its stepLog.txt beside a
// result.json; an Othello move list beside the transcript of its game).
func (s recordSummary) partOf(whole recordSummary) bool {
	return s.Game == whole.Game && s.completeness() < whole.completeness() && (s.Plies == 0 || s.Plies == whole.Plies)
}

// recordGroup is the games listed under one record directory (or a record
// file given by itself).
type recordGroup struct {
	Dir   string
	Files []recordFile // one per game: the record that replays it most fully
}

// oneEntryPerGame keeps, of files (the record files found under one
// record directory), one entry per game: a file that is a part of a game
// whose fuller record sits in the same directory (see partOf) is left out;
// it can still be opened by its path. A directory that holds several games
// (a server's folder of transcripts) keeps an entry for each. The entries
// come in order of Rel.
func oneEntryPerGame(files []recordFile) []recordFile {
	byDir := map[string][]int{}
	for i, f := range files {
		dir := filepath.Dir(f.Rel)
		byDir[dir] = append(byDir[dir], i)
	}
	var out []recordFile
	for i, f := range files {
		part := false
		for _, j := range byDir[filepath.Dir(f.Rel)] {
			if j != i && f.Summary.partOf(files[j].Summary) {
				part = true
				break
			}
		}
		if !part {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b recordFile) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

// listRecords lists the games recorded under the record directories (and
// the record files given as such): the record files a game's Replay reads,
// hidden ones, empty ones and oversized ones left out, each file once, one
// entry per game (oneEntryPerGame), within the limits: MaxDepth levels,
// MaxWalk entries looked at, MaxListed files, MaxCheckBytes of files read to
// check them. A file checked before (same path, size and time) is not read
// again; with check false no file is read, and those never checked are left
// out. note says when the list is cut short or a directory is unreadable.
func (v *Viewer) listRecords(check bool) (groups []recordGroup, note string) {
	walked, listed, unchecked := 0, 0, 0
	var read int64
	seen := map[string]bool{}
	titles := map[string]string{}
	for _, d := range v.defs {
		titles[d.Name] = d.Title
	}
	var notes []string
	for _, dir := range v.dirs {
		if listed >= v.limits.MaxListed || walked >= v.limits.MaxWalk {
			break
		}
		g := recordGroup{Dir: dir}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			walked++
			if walked > v.limits.MaxWalk || listed >= v.limits.MaxListed {
				return fs.SkipAll
			}
			if err != nil {
				if path == dir {
					return err
				}
				return nil // an unreadable entry below: skip it
			}
			rel, _ := filepath.Rel(dir, path)
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != dir && strings.Count(filepath.ToSlash(rel), "/") >= v.limits.MaxDepth {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > v.limits.MaxRecordBytes || info.Size() == 0 {
				return nil
			}
			real, err := resolve(path)
			if err != nil || seen[real] {
				return nil
			}
			seen[real] = true
			key := recordKey(real, info)
			sum, ok := v.store.verdict(key)
			if !ok {
				if !check || read+info.Size() > v.limits.MaxCheckBytes {
					unchecked++
					return nil
				}
				read += info.Size()
				sum = v.checkRecord(real, filepath.Base(path))
				v.store.setVerdict(key, sum)
			}
			if sum.Game == "" {
				return nil
			}
			if rel == "." {
				rel = filepath.Base(path)
			}
			g.Files = append(g.Files, recordFile{Path: path, Rel: rel, Title: titles[sum.Game], Size: info.Size(), Modified: info.ModTime(), Summary: sum})
			listed++
			return nil
		})
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", dir, unwrapPath(err)))
		}
		if g.Files = oneEntryPerGame(g.Files); len(g.Files) > 0 {
			groups = append(groups, g)
		}
	}
	if walked > v.limits.MaxWalk || listed >= v.limits.MaxListed {
		notes = append(notes, fmt.Sprintf("the list stops at %d files (%d entries looked at)", listed, min(walked, v.limits.MaxWalk)))
	}
	if unchecked > 0 {
		why := fmt.Sprintf("the index reads at most %d MiB of files to check them", v.limits.MaxCheckBytes>>20)
		if !check {
			why = "the viewer is busy reading others"
		}
		notes = append(notes, fmt.Sprintf("%d files not checked yet are left out (%s): reload to check more", unchecked, why))
	}
	return groups, strings.Join(notes, "; ")
}

// recordKey names a record file at real as it is now: a file changed since
// is another key.
func recordKey(real string, info fs.FileInfo) string {
	return fmt.Sprintf("file\x00%s\x00%d\x00%d\x00", real, info.Size(), info.ModTime().UnixNano())
}

// checkRecord reads the record file at real and returns what the index
// lists of it: the game whose Replay reads it (none: the zero summary), the
// players, the result and the plies.
func (v *Viewer) checkRecord(real, name string) recordSummary {
	data, err := readLimited(real, v.limits.MaxRecordBytes)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return recordSummary{}
	}
	rp, def, _, err := readReplay(v.defs, "", name, data)
	if err != nil {
		return recordSummary{}
	}
	return recordSummary{Game: def.Name, Players: [2]string{clipText(rp.Players[0], maxNameBytes), clipText(rp.Players[1], maxNameBytes)},
		Result: clipText(rp.Result, maxIndexResultBytes), Plies: len(rp.Moves)}
}

// readLimited reads the regular file at path, if it holds at most max bytes.
func readLimited(path string, max int64) ([]byte, error) {
	// Opened without waiting: a named pipe with no writer must not hold
	// the page (it is refused below, as anything but a regular file is).
	f, err := os.OpenFile(path, os.O_RDONLY|fsguard.NoWait, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > max {
		return nil, errTooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, errTooBig
	}
	return data, nil
}

// errTooBig is readLimited's error for a file over the limit.
var errTooBig = errors.New("too big")

// unwrapPath drops the path from a *fs.PathError, for messages that name
// the path already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// httpError is an error with the HTTP status that answers it.
type httpError struct {
	Status int
	Title  string
	Msg    string
}

// Error is the message of the page.
func (e *httpError) Error() string { return e.Msg }

// notRecord is the answer to a file the replay page may not read, or that
// is not there: the same for both, naming no directory, so that nothing
// outside the record directories can be learnt from it.
func notRecord() *httpError {
	return &httpError{http.StatusNotFound, "No such record file",
		"This viewer has no such record file: it replays the files its index lists and the records of its games. Upload any other record on the index."}
}

// findRecord checks that the record file path may be read by the replay
// page: one of the record files given, under a record directory given
// (symbolic links resolved: no way out), or a record a game wrote; a
// regular file of at most MaxRecordBytes. It returns the file's resolved
// path and its key in the store.
func (v *Viewer) findRecord(path string) (real, key string, err error) {
	if path == "" {
		return "", "", &httpError{http.StatusBadRequest, "No file", "The replay page needs a record file: /replay?file=<path>, a path the index lists."}
	}
	if len(path) > 4096 || strings.ContainsRune(path, 0) {
		return "", "", &httpError{http.StatusBadRequest, "Bad file name", "The file name is too long or holds a NUL byte."}
	}
	real, err = resolve(path)
	if err != nil || !v.mayRead(real) {
		return "", "", notRecord()
	}
	info, err := os.Stat(real)
	switch {
	case err != nil:
		return "", "", notRecord()
	case !info.Mode().IsRegular():
		return "", "", &httpError{http.StatusBadRequest, "Not a file", path + " is not a regular file."}
	case info.Size() > v.limits.MaxRecordBytes:
		return "", "", v.tooBig(path)
	}
	return real, recordKey(real, info), nil
}

// readRecord reads the record file at real (path as asked for).
func (v *Viewer) readRecord(real, path string) ([]byte, error) {
	data, err := readLimited(real, v.limits.MaxRecordBytes)
	switch {
	case errors.Is(err, errTooBig):
		return nil, v.tooBig(path)
	case err != nil:
		return nil, &httpError{http.StatusNotFound, "Cannot read the file", fmt.Sprintf("%s: %v", path, unwrapPath(err))}
	}
	return data, nil
}

// tooBig is the error of a record over the size limit.
func (v *Viewer) tooBig(name string) error {
	return &httpError{http.StatusRequestEntityTooLarge, "Record too big",
		fmt.Sprintf("%s is larger than %d bytes, the most the viewer reads: a record of any of the games is much smaller.", name, v.limits.MaxRecordBytes)}
}

// resolve returns the absolute path of path with every symbolic link
// followed.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// mayRead reports whether the replay page may read the file at real (a
// resolved path).
func (v *Viewer) mayRead(real string) bool {
	for _, dir := range v.dirs {
		root, err := resolve(dir)
		if err != nil {
			continue
		}
		if real == root {
			return true // a record file given by itself
		}
		if rel, err := filepath.Rel(root, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.records[real] > 0
}

// readReplay reads a record of the game of defs named game, or of the first
// game whose Replay reads it when game is "". It says which game read it
// (detected is true when it was not asked for).
func readReplay(defs []*Game, game, name string, data []byte) (rp Replay, def *Game, detected bool, err error) {
	if game != "" {
		var names []string
		for _, d := range defs {
			names = append(names, d.Name)
			if d.Name == game {
				def = d
			}
		}
		if def == nil {
			return Replay{}, nil, false, &httpError{http.StatusBadRequest, "Unknown game",
				fmt.Sprintf("Unknown game %q: the games are %s.", game, strings.Join(names, ", "))}
		}
		if def.Replay == nil {
			return Replay{}, nil, false, &httpError{http.StatusBadRequest, "No replay for " + def.Title,
				fmt.Sprintf("This arena cannot replay %s records yet.", def.Title)}
		}
		rp, err := safeReplay(def, name, data)
		if err != nil {
			return Replay{}, nil, false, &httpError{http.StatusUnprocessableEntity, "Not a " + def.Title + " record",
				fmt.Sprintf("%v\n\nAccepted for %s: %s.", err, def.Title, formatFor(defs, def.Name))}
		}
		return rp, def, false, nil
	}
	var why []string
	for _, d := range defs {
		if d.Replay == nil {
			continue
		}
		rp, err := safeReplay(d, name, data)
		if err == nil {
			return rp, d, true, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", d.Title, err))
	}
	return Replay{}, nil, false, &httpError{http.StatusUnprocessableEntity, "Not a record of any game",
		fmt.Sprintf("%s is not a record file any game reads.\n\n%s\n\nAccepted: %s.", name, strings.Join(why, "\n"), formatsText(defs))}
}

// formatFor is the formats accepted for the game of defs named name.
func formatFor(defs []*Game, name string) string {
	for _, f := range gameFormats(defs) {
		if f.Name == name {
			return f.Formats
		}
	}
	return ""
}

// safeReplay calls def.Replay, turning a panic into an error, and checks the
// replay has frames.
func safeReplay(def *Game, name string, data []byte) (rp Replay, err error) {
	defer func() {
		if p := recover(); p != nil {
			rp, err = Replay{}, fmt.Errorf("%s: the %s reader failed: %v", name, def.Title, p)
		}
	}()
	rp, err = def.Replay(name, data)
	if err == nil && rp.Frame == nil {
		err = fmt.Errorf("%s: a record with no position", name)
	}
	if err == nil && rp.Game == "" {
		rp.Game = def.Name
	}
	return rp, err
}

// ErrNoFrame is the error of [Replay.FrameAt] for a frame a replay does
// not have.
var ErrNoFrame = errors.New("viewer: no such frame")

// FrameAt draws frame i of rp, 0 <= i <= len(rp.Moves). Any other i, a
// Replay without a Frame function, or a Frame function that fails (a
// panic while drawing) gives an error, never a panic: an i out of range
// one that wraps ErrNoFrame.
func (rp Replay) FrameAt(i int) (f Frame, err error) {
	if i < 0 || i > len(rp.Moves) {
		return Frame{}, fmt.Errorf("%w: frame %d of a replay of %d plies (frames 0 to %d)", ErrNoFrame, i, len(rp.Moves), len(rp.Moves))
	}
	if rp.Frame == nil {
		return Frame{}, fmt.Errorf("%w: the replay has no Frame function", ErrNoFrame)
	}
	defer func() {
		if p := recover(); p != nil {
			f, err = Frame{}, fmt.Errorf("viewer: drawing ply %d failed: %v", i, p)
		}
	}()
	return rp.Frame(i), nil
}

// framesIn makes a replay's Frame function safe to call with any i: for an
// i outside 0 to n it returns the zero Frame instead of calling frame.
func framesIn(n int, frame func(int) Frame) func(int) Frame {
	return func(i int) Frame {
		if i < 0 || i > n {
			return Frame{}
		}
		return frame(i)
	}
}

// frames draws every frame of rp: the start, then one after each ply.
func (rp Replay) frames() []Frame {
	fs := make([]Frame, 0, len(rp.Moves)+1)
	for i := 0; i <= len(rp.Moves); i++ {
		fs = append(fs, rp.Frame(i))
	}
	return fs
}

// Texts the viewer shows from a record are clipped (clipText), so that a
// crafted record cannot make every page and picture as large as itself.
const (
	maxNameBytes   = 100 // a player's name
	maxResultBytes = 500 // a result in words
)

// clipText is s made valid text (xmltext.Clean) and cut to at most max
// bytes, on a character boundary, an ellipsis added.
func clipText(s string, max int) string {
	// Invalid UTF-8 and the characters XML forbids (NUL, other control
	// characters) become U+FFFD: the pages and pictures stay valid.
	s = xmltext.Clean(s, max)
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// replaySource is where a replay page's record comes from: a record file,
// or an upload kept by the viewer.
type replaySource struct {
	query  url.Values // file=<path> or upload=<id>: how the page and its frames name it
	name   string     // the file's name
	source string     // its path, or "uploaded"
	key    string     // its key in the store, the game to follow
	read   func() ([]byte, error)
	// real is the record file's resolved path, "" for an upload: the
	// programs' output is looked for beside it.
	real string
}

// sourceOf finds the record a replay request names: "upload" (an id the
// viewer gave to an upload) or "file" (a path).
func (v *Viewer) sourceOf(q url.Values) (replaySource, error) {
	if id := q.Get("upload"); id != "" {
		u, ok := v.store.upload(id)
		if !ok {
			return replaySource{}, &httpError{http.StatusNotFound, "Upload no longer kept",
				fmt.Sprintf("This uploaded record is no longer kept: the viewer keeps the last %d uploads (at most %d MiB). Upload it again on the index.",
					v.limits.MaxUploads, v.limits.MaxUploadBytes>>20)}
		}
		return replaySource{query: url.Values{"upload": {id}}, name: u.name, source: "uploaded", key: uploadKey(id),
			read: func() ([]byte, error) { return u.data, nil }}, nil
	}
	path := q.Get("file")
	real, key, err := v.findRecord(path)
	if err != nil {
		return replaySource{}, err
	}
	return replaySource{query: url.Values{"file": {path}}, name: filepath.Base(path), source: path, key: key,
		read: func() ([]byte, error) { return v.readRecord(real, path) }, real: real}, nil
}

// load returns the replay of src read as game ("" for the first game that
// reads it), from the store if it was read before.
func (v *Viewer) load(src replaySource, game string) (*parsedReplay, error) {
	key := src.key + game
	if p, ok := v.store.getParsed(key); ok {
		return p, nil
	}
	data, err := src.read()
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &httpError{http.StatusUnprocessableEntity, "Empty record", fmt.Sprintf("%s is empty.\n\nAccepted: %s.", src.name, formatsText(v.defs))}
	}
	rp, def, detected, err := readReplay(v.defs, game, src.name, data)
	if err != nil {
		return nil, err
	}
	if len(rp.Moves) > v.limits.MaxPlies {
		return nil, &httpError{http.StatusUnprocessableEntity, "Record too long to show",
			fmt.Sprintf("%s is a %s record of %d plies, more than the %d a replay shows.", src.name, def.Title, len(rp.Moves), v.limits.MaxPlies)}
	}
	p := &parsedReplay{key: key, rp: rp, def: def, detected: detected}
	v.store.putParsed(p)
	if game == "" {
		// The page's frames name the game found.
		named := *p
		named.key, named.detected = src.key+def.Name, false
		v.store.putParsed(&named)
	}
	return p, nil
}

// replayPage is the data of the replay page.
type replayPage struct {
	Title    string
	Name     string // the file's name
	Source   string // where it came from: the path, or "uploaded"
	GameName string
	Seats    [2]string // the game's seats, the first mover's first
	Detected bool
	Players  [2]string
	Result   string
	Data     replayData
}

// replayData is what the replay page's script gets: the moves, and where
// to fetch each ply's frame.
type replayData struct {
	Game  string   `json:"game"`
	Moves []string `json:"moves"`
	// Frame is the URL of the frames, to which "&ply=N" (and "&view=V" for
	// a player's view) is added.
	Frame string `json:"frame"`
	// Start is the URL of the start file at a ply, Output that of the
	// programs' output of a ply: "&ply=N" is added to each.
	Start  string `json:"start"`
	Output string `json:"output"`
}

// serveReplay serves the replay page of a record file under the record
// directories (?file=<path>) or of an upload (?upload=<id>), with ?game=
// when the game is known.
func (v *Viewer) serveReplay(w http.ResponseWriter, r *http.Request) {
	release, ok := v.acquire(r.Context())
	if !ok {
		v.replyError(w, v.busy())
		return
	}
	defer release()
	q := r.URL.Query()
	src, err := v.sourceOf(q)
	if err != nil {
		v.replyError(w, err)
		return
	}
	p, err := v.load(src, q.Get("game"))
	if err != nil {
		v.replyError(w, err)
		return
	}
	fq := maps.Clone(src.query)
	fq.Set("game", p.def.Name)
	title := p.def.Title + " replay: " + src.name
	v.page(w, http.StatusOK, "replay.html", replayPage{Title: title, Name: src.name, Source: src.source, GameName: p.def.Title,
		Seats: p.def.Seats, Detected: p.detected, Players: p.rp.Players, Result: p.rp.Result,
		Data: replayData{Game: p.def.Name, Moves: p.rp.Moves, Frame: "/replay/frame?" + fq.Encode(),
			Start: "/replay/start?" + fq.Encode(), Output: "/replay/output?" + fq.Encode()}})
}

// serveReplayUpload reads an uploaded record: the "file" part of a
// multipart form (with an optional "game" part), or else the request body
// itself (name and game in the query). A record that replays is kept, and
// the answer sends the browser to its replay page.
func (v *Viewer) serveReplayUpload(w http.ResponseWriter, r *http.Request) {
	release, ok := v.acquire(r.Context())
	if !ok {
		v.replyError(w, v.busy())
		return
	}
	defer release()
	const slack = 64 << 10 // the form's other parts and headers
	r.Body = http.MaxBytesReader(w, r.Body, v.limits.MaxRecordBytes+slack)
	game, name := r.URL.Query().Get("game"), r.URL.Query().Get("name")
	var data []byte
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		mr, err := r.MultipartReader()
		if err != nil {
			v.replyError(w, &httpError{http.StatusBadRequest, "Bad upload", "The form could not be read: " + err.Error()})
			return
		}
		got := false
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				v.replyError(w, v.uploadError(err, name))
				return
			}
			switch part.FormName() {
			case "game":
				b, _ := io.ReadAll(io.LimitReader(part, 64))
				if g := strings.TrimSpace(string(b)); g != "" && g != "auto" {
					game = g
				}
			case "file":
				name = part.FileName()
				if data, err = v.readUpload(part, name); err != nil {
					v.replyError(w, err)
					return
				}
				got = true
			}
			part.Close()
		}
		if !got {
			v.replyError(w, &httpError{http.StatusBadRequest, "No file", "The form has no file: choose a record file to upload."})
			return
		}
	} else {
		var err error
		if data, err = v.readUpload(r.Body, name); err != nil {
			v.replyError(w, err)
			return
		}
	}
	name = clipText(filepath.Base(orDefault(name, "upload")), maxNameBytes)
	id := uploadID(data)
	src := replaySource{query: url.Values{"upload": {id}}, name: name, source: "uploaded", key: uploadKey(id),
		read: func() ([]byte, error) { return data, nil }}
	if _, err := v.load(src, game); err != nil {
		v.replyError(w, err)
		return
	}
	v.store.addUpload(name, data)
	q := url.Values{"upload": {id}}
	if game != "" {
		q.Set("game", game)
	}
	http.Redirect(w, r, "/replay?"+q.Encode(), http.StatusSeeOther)
}

// readUpload reads an uploaded record, refusing one over MaxRecordBytes.
func (v *Viewer) readUpload(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, v.limits.MaxRecordBytes+1))
	if err != nil {
		return nil, v.uploadError(err, name)
	}
	if int64(len(data)) > v.limits.MaxRecordBytes {
		return nil, v.tooBig(orDefault(name, "the upload"))
	}
	return data, nil
}

// uploadError is the error of an upload that could not be read.
func (v *Viewer) uploadError(err error, name string) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return v.tooBig(orDefault(name, "the upload"))
	}
	return &httpError{http.StatusBadRequest, "Bad upload", "The upload could not be read: " + err.Error()}
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// frameReply is the answer of /replay/frame: one frame, its picture the
// view asked for.
type frameReply struct {
	Ply    int       `json:"ply"`
	Move   string    `json:"move,omitempty"`
	Status string    `json:"status"`
	Clocks [2]string `json:"clocks"`
	ToMove int       `json:"toMove"`
	Board  string    `json:"board"`          // the picture: the spectator's, or the view's
	View   string    `json:"view,omitempty"` // the view shown, "" for the spectator's
	Views  []string  `json:"views,omitempty"`
	Plies  int       `json:"plies"` // the record's plies
}

// replayPly reads a request for one ply of a replay (?file= or ?upload=
// as for the replay page, game, and ply, 0 for the start) in a turn of
// the heavy requests: the replay, where it comes from, and the ply. The
// caller calls release when done, unless err is not nil: then err is the
// *httpError to answer with.
func (v *Viewer) replayPly(r *http.Request) (p *parsedReplay, src replaySource, ply int, release func(), err error) {
	q := r.URL.Query()
	ply, err = strconv.Atoi(q.Get("ply"))
	if err != nil || ply < 0 {
		return nil, src, 0, nil, &httpError{http.StatusBadRequest, "Bad ply", fmt.Sprintf("ply %q: want a number of plies from 0", q.Get("ply"))}
	}
	release, ok := v.acquire(r.Context())
	if !ok {
		return nil, src, 0, nil, v.busy()
	}
	if src, err = v.sourceOf(q); err == nil {
		p, err = v.load(src, q.Get("game"))
	}
	if err == nil && ply > len(p.rp.Moves) {
		err = &httpError{http.StatusNotFound, "No such ply", fmt.Sprintf("%s has %d plies: no ply %d", src.name, len(p.rp.Moves), ply)}
	}
	if err != nil {
		release()
		return nil, src, 0, nil, err
	}
	return p, src, ply, release, nil
}

// serveFrame serves one frame of a replay as JSON: ?file= or ?upload= as
// for the page, game, ply (0 for the start), and view (a player's, where
// the game has them). An error is {"error": "..."} with its status.
func (v *Viewer) serveFrame(w http.ResponseWriter, r *http.Request) {
	p, src, ply, release, err := v.replayPly(r)
	if err != nil {
		v.replyJSONError(w, err)
		return
	}
	defer release()
	f, err := p.rp.FrameAt(ply)
	if err != nil {
		v.replyJSONError(w, &httpError{http.StatusUnprocessableEntity, "Cannot draw", fmt.Sprintf("%s: %v", src.name, err)})
		return
	}
	out := frameReply{Ply: ply, Move: f.Move, Status: f.Status, Clocks: f.Clocks, ToMove: f.ToMove, Board: f.Board, Plies: len(p.rp.Moves)}
	for name := range f.Views {
		out.Views = append(out.Views, name)
	}
	slices.Sort(out.Views)
	if view := r.URL.Query().Get("view"); f.Views[view] != "" {
		out.Board, out.View = f.Views[view], view
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

// replyError answers with the error page of err.
func (v *Viewer) replyError(w http.ResponseWriter, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		he = &httpError{http.StatusBadRequest, "Error", err.Error()}
	}
	if he.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	v.page(w, he.Status, "error.html", errorPage{Title: he.Title, Message: he.Msg, Formats: gameFormats(v.defs)})
}

// replyJSONError answers a script's request with {"error": message}.
func (v *Viewer) replyJSONError(w http.ResponseWriter, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		he = &httpError{http.StatusBadRequest, "Error", err.Error()}
	}
	if he.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	b, _ := json.Marshal(map[string]string{"error": he.Title + ": " + he.Msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(he.Status)
	w.Write(b)
}
