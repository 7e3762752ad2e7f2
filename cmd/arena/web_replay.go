package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// gameFormat names the record files the viewer reads for a game.
type gameFormat struct {
	Name, Title, Formats string
	Ready                bool // the game has a Replay
}

// gameFormats lists, per game of defs, the record files the replay page
// accepts.
func gameFormats(defs []*gameDef) []gameFormat {
	formats := map[string]string{
		"othello":   "the TUS server's -trans transcript (B:<black>,W:<white>, then x,y,color lines), or a plain move list (f5d6c3...)",
		"geister":   "the Java server's game log, or an NTPU board.txt",
		"darkchess": "a board.txt record (2021 platform, 2017 server, 2019 client)",
		"pdd":       "a stepLog.txt (with chess.txt and bridge.txt beside it when there are any)",
	}
	var out []gameFormat
	for _, d := range defs {
		f := formats[d.Name]
		if f == "" {
			f = "its records"
		}
		out = append(out, gameFormat{Name: d.Name, Title: d.Title, Formats: f, Ready: d.Replay != nil})
	}
	return out
}

// formatsText lists the formats of the games of defs in one text.
func formatsText(defs []*gameDef) string {
	var b strings.Builder
	for i, f := range gameFormats(defs) {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", f.Title, f.Formats)
	}
	return b.String()
}

// recordFile is a file listed on the index for replay.
type recordFile struct {
	Path     string // as the replay link gives it: the record directory joined with Rel
	Rel      string // the path within the record directory
	Size     int64
	Modified time.Time
}

// recordGroup is the files listed under one record directory (or a record
// file given by itself).
type recordGroup struct {
	Dir   string
	Files []recordFile
}

// listRecords lists the regular files under the record directories (and the
// record files given as such), hidden ones, empty ones and oversized ones
// left out, each file once, within the limits: MaxDepth levels, MaxWalk
// entries looked at, MaxListed files. note says when the list is cut short
// or a directory is unreadable.
func (v *viewer) listRecords() (groups []recordGroup, note string) {
	walked, listed := 0, 0
	seen := map[string]bool{}
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
			if real, err := resolve(path); err != nil || seen[real] {
				return nil
			} else {
				seen[real] = true
			}
			if rel == "." {
				rel = filepath.Base(path)
			}
			g.Files = append(g.Files, recordFile{Path: path, Rel: rel, Size: info.Size(), Modified: info.ModTime()})
			listed++
			return nil
		})
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", dir, unwrapPath(err)))
		}
		if len(g.Files) > 0 {
			slices.SortFunc(g.Files, func(a, b recordFile) int { return strings.Compare(a.Rel, b.Rel) })
			groups = append(groups, g)
		}
	}
	if walked > v.limits.MaxWalk || listed >= v.limits.MaxListed {
		notes = append(notes, fmt.Sprintf("the list stops at %d files (%d entries looked at)", listed, min(walked, v.limits.MaxWalk)))
	}
	return groups, strings.Join(notes, "; ")
}

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

// openRecord reads the record file path for the replay page, if it may: it
// must be one of the record files given, lie under a record directory given
// (symbolic links resolved: no way out), or be a record a game wrote; it
// must be a regular file of at most MaxRecordBytes.
func (v *viewer) openRecord(path string) ([]byte, error) {
	if path == "" {
		return nil, &httpError{http.StatusBadRequest, "No file", "The replay page needs a record file: /replay?file=<path>, a path the index lists."}
	}
	if len(path) > 4096 || strings.ContainsRune(path, 0) {
		return nil, &httpError{http.StatusBadRequest, "Bad file name", "The file name is too long or holds a NUL byte."}
	}
	real, err := resolve(path)
	if err != nil {
		return nil, &httpError{http.StatusNotFound, "No such file", fmt.Sprintf("%s: %v", path, unwrapPath(err))}
	}
	if !v.mayRead(real) {
		return nil, &httpError{http.StatusForbidden, "Not a record file of this viewer",
			fmt.Sprintf("%s is not under the record directories of this viewer (%s): only the files the index lists can be replayed; upload any other.", path, strings.Join(v.dirs, ", "))}
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, &httpError{http.StatusNotFound, "Cannot read the file", fmt.Sprintf("%s: %v", path, unwrapPath(err))}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, &httpError{http.StatusBadRequest, "Not a file", path + " is not a regular file."}
	}
	if info.Size() > v.limits.MaxRecordBytes {
		return nil, v.tooBig(path)
	}
	data, err := io.ReadAll(io.LimitReader(f, v.limits.MaxRecordBytes+1))
	if err != nil {
		return nil, &httpError{http.StatusNotFound, "Cannot read the file", fmt.Sprintf("%s: %v", path, unwrapPath(err))}
	}
	if int64(len(data)) > v.limits.MaxRecordBytes {
		return nil, v.tooBig(path)
	}
	return data, nil
}

// tooBig is the error of a record over the size limit.
func (v *viewer) tooBig(name string) error {
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
func (v *viewer) mayRead(real string) bool {
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
func readReplay(defs []*gameDef, game, name string, data []byte) (rp replay, def *gameDef, detected bool, err error) {
	if game != "" {
		var names []string
		for _, d := range defs {
			names = append(names, d.Name)
			if d.Name == game {
				def = d
			}
		}
		if def == nil {
			return replay{}, nil, false, &httpError{http.StatusBadRequest, "Unknown game",
				fmt.Sprintf("Unknown game %q: the games are %s.", game, strings.Join(names, ", "))}
		}
		if def.Replay == nil {
			return replay{}, nil, false, &httpError{http.StatusBadRequest, "No replay for " + def.Title,
				fmt.Sprintf("This arena cannot replay %s records yet.", def.Title)}
		}
		rp, err := safeReplay(def, name, data)
		if err != nil {
			return replay{}, nil, false, &httpError{http.StatusUnprocessableEntity, "Not a " + def.Title + " record",
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
	return replay{}, nil, false, &httpError{http.StatusUnprocessableEntity, "Not a record of any game",
		fmt.Sprintf("%s is not a record file any game reads.\n\n%s\n\nAccepted: %s.", name, strings.Join(why, "\n"), formatsText(defs))}
}

// formatFor is the formats accepted for the game of defs named name.
func formatFor(defs []*gameDef, name string) string {
	for _, f := range gameFormats(defs) {
		if f.Name == name {
			return f.Formats
		}
	}
	return ""
}

// safeReplay calls def.Replay, turning a panic into an error, and checks the
// replay has frames.
func safeReplay(def *gameDef, name string, data []byte) (rp replay, err error) {
	defer func() {
		if p := recover(); p != nil {
			rp, err = replay{}, fmt.Errorf("%s: the %s reader failed: %v", name, def.Title, p)
		}
	}()
	rp, err = def.Replay(name, data)
	if err == nil && len(rp.Frames) == 0 {
		err = fmt.Errorf("%s: a record with no position", name)
	}
	if err == nil && rp.Game == "" {
		rp.Game = def.Name
	}
	return rp, err
}

// replayPage is the data of the replay page.
type replayPage struct {
	Title    string
	Name     string // the file's name
	Source   string // where it came from: the path, or "uploaded"
	GameName string
	Seats    [2]string // the game's seats, the first mover's first
	Detected bool
	Replay   replay
}

// serveReplayFile serves the replay page of a record file under the record
// directories.
func (v *viewer) serveReplayFile(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	path := q.Get("file")
	data, err := v.openRecord(path)
	if err != nil {
		v.replyError(w, err)
		return
	}
	v.showReplay(w, q.Get("game"), filepath.Base(path), path, data)
}

// serveReplayUpload serves the replay page of an uploaded record: the
// "file" part of a multipart form (with an optional "game" part), or else
// the request body itself (name and game in the query).
func (v *viewer) serveReplayUpload(w http.ResponseWriter, r *http.Request) {
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
	name = filepath.Base(orDefault(name, "upload"))
	v.showReplay(w, game, name, "uploaded", data)
}

// readUpload reads an uploaded record, refusing one over MaxRecordBytes.
func (v *viewer) readUpload(r io.Reader, name string) ([]byte, error) {
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
func (v *viewer) uploadError(err error, name string) error {
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

// showReplay reads data as a record and serves its replay page.
func (v *viewer) showReplay(w http.ResponseWriter, game, name, source string, data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		v.replyError(w, &httpError{http.StatusUnprocessableEntity, "Empty record", fmt.Sprintf("%s is empty.\n\nAccepted: %s.", name, formatsText(v.defs))})
		return
	}
	rp, def, detected, err := readReplay(v.defs, game, name, data)
	if err != nil {
		v.replyError(w, err)
		return
	}
	size := 0
	for _, f := range rp.Frames {
		size += len(f.Board)
		for _, view := range f.Views {
			size += len(view)
		}
	}
	if size > v.limits.MaxReplayBytes {
		v.replyError(w, &httpError{http.StatusUnprocessableEntity, "Record too long to show",
			fmt.Sprintf("%s is a %s record of %d plies: its boards come to %d MiB, more than the %d MiB a replay page carries.",
				name, def.Title, len(rp.Frames)-1, size>>20, v.limits.MaxReplayBytes>>20)})
		return
	}
	title := def.Title + " replay: " + name
	v.page(w, http.StatusOK, "replay.html", replayPage{Title: title, Name: name, Source: source, GameName: def.Title, Seats: def.Seats, Detected: detected, Replay: rp})
}

// replyError answers with the error page of err.
func (v *viewer) replyError(w http.ResponseWriter, err error) {
	var he *httpError
	if errors.As(err, &he) {
		v.page(w, he.Status, "error.html", errorPage{Title: he.Title, Message: he.Msg, Formats: gameFormats(v.defs)})
		return
	}
	v.page(w, http.StatusBadRequest, "error.html", errorPage{Title: "Error", Message: err.Error(), Formats: gameFormats(v.defs)})
}
