package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/botarena/botarena/internal/fsguard"
)

// A run's records directory holds, beside a directory per game:
//
//	run.json     the run: its command, game, flags, players and seed, written
//	             before the first game, so that -resume can play it on
//	results.tsv  a header, then a line per game appended (and synced) as the
//	             game ends: kill -9 of arena loses no finished game
//	results.txt  the summary written at the end: a line per game, the table
const (
	runFileName     = "run.json"
	resultsFileName = "results.tsv"
	summaryFileName = "results.txt"
)

// maxResultsLine bounds a line of results.tsv when it is read back: a line
// holds two names, a detail, two faults and a path, each bounded.
const maxResultsLine = 64 << 10

// resultsHeader is the first line of results.tsv. The result column is the
// first seat's, as PGN writes it: 1-0, 0-1, 1/2-1/2, or * for a game without
// a result.
//
// The ending column holds the ending's word (ending.String), and the
// fallbacks columns count each seat's fallback moves (gameResult.Fallbacks).
// The files of earlier arenas have oldResultsHeader: readResults reads them
// too (the platform's word in their reason column, parseEnding; no
// fallback moves).
const resultsHeader = "game\tpairing\tindex\tfirst\tsecond\tresult\twinner\tending\tdetail\tplies\tfirst_fault\tsecond_fault\trecord\tfirst_fallbacks\tsecond_fallbacks"

// oldResultsHeader is the header of the results.tsv of earlier arenas:
// the platform's word in the reason column, no fallbacks columns. A run
// resumed in such a directory goes on writing its lines in that layout
// (resultsLog).
const oldResultsHeader = "game\tpairing\tindex\tfirst\tsecond\tresult\twinner\treason\tdetail\tplies\tfirst_fault\tsecond_fault\trecord"

// runRecord is run.json: what "arena match" or "arena tournament" was asked
// to play, in a form that plays the same games again.
type runRecord struct {
	Version int    `json:"version"` // 1
	Command string `json:"command"` // match or tournament
	Game    string `json:"game"`    // gameDef.Name
	Seed    uint64 `json:"seed"`    // the match seed, drawn or given
	// Flags are the flags given that shape the games (every one but -out,
	// -seed, -resume, -j, -web and -v), by name, in their text form, with
	// a -start path made absolute.
	Flags map[string]string `json:"flags"`
	// Players are the players as NAME=SPEC, in their order, a program's
	// relative path made absolute, so the run can go on from any
	// directory.
	Players []string `json:"players"`
}

// runOnlyFlag reports whether the flag called name leaves the games a run
// plays and how they end alone, so that -resume takes it from its own
// command line (or, for -out and -seed, from the run).
func runOnlyFlag(name string) bool {
	switch name {
	case "out", "seed", "resume", "j", "web", "v":
		return true
	}
	return false
}

// newRunRecord describes the run cfg was parsed from: fs holds the flags as
// given.
func newRunRecord(cmd string, cfg *matchConfig, fs *flag.FlagSet) (*runRecord, error) {
	rec := &runRecord{Version: 1, Command: cmd, Game: cfg.Game.Name, Seed: cfg.Seed, Flags: map[string]string{}}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if runOnlyFlag(f.Name) {
			return
		}
		v := f.Value.String()
		if f.Name == "start" && v != "" {
			if abs, aerr := filepath.Abs(v); aerr == nil {
				v = abs
			} else {
				err = aerr
			}
		}
		rec.Flags[f.Name] = v
	})
	for _, p := range cfg.Players {
		spec := p.Builtin
		if p.Human {
			spec = humanPlayer
		}
		if spec == "" {
			cmd := slices.Clone(p.Command)
			if strings.ContainsAny(cmd[0], `/\`) && !filepath.IsAbs(cmd[0]) {
				abs, aerr := filepath.Abs(cmd[0])
				if aerr != nil {
					return nil, aerr
				}
				cmd[0] = abs
			}
			spec = p.Protocol + ":" + strings.Join(cmd, " ")
		}
		rec.Players = append(rec.Players, p.Name+"="+spec)
	}
	return rec, err
}

// args returns the command line (after the game's name) that plays the run
// again into dir.
func (rec *runRecord) args(dir string) []string {
	var args []string
	names := make([]string, 0, len(rec.Flags))
	for name := range rec.Flags {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		args = append(args, "-"+name+"="+rec.Flags[name])
	}
	args = append(args, "-seed="+strconv.FormatUint(rec.Seed, 10), "-out="+dir, "--")
	return append(args, rec.Players...)
}

// writeRunRecord writes run.json into dir.
func writeRunRecord(dir string, rec *runRecord) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, runFileName), append(b, '\n'), 0o644)
}

// readRunRecord reads dir's run.json.
func readRunRecord(dir string) (*runRecord, error) {
	data, err := fsguard.ReadBounded(filepath.Join(dir, runFileName), runFileName, maxRunFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a run's records directory (no %s)", dir, runFileName)
		}
		return nil, err
	}
	var rec runRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, runFileName), err)
	}
	if rec.Version != 1 || rec.Game == "" || (rec.Command != "match" && rec.Command != "tournament") {
		return nil, fmt.Errorf("%s: not a run arena can resume (version %d, command %q, game %q)", filepath.Join(dir, runFileName), rec.Version, rec.Command, rec.Game)
	}
	return &rec, nil
}

// resultsLog is results.tsv opened for appending.
type resultsLog struct {
	f     *os.File
	short bool // the file has an earlier arena's header: lines end at record
}

// openResults opens results.tsv in root (the directory dir) for
// appending, writing its header if the file is new. A file an earlier arena began, whose header ends at
// record, gets its lines in that layout, so that every line matches the
// header.
func openResults(root *os.Root, dir string) (*resultsLog, error) {
	path := filepath.Join(dir, resultsFileName)
	f, err := root.OpenFile(resultsFileName, os.O_RDWR|os.O_CREATE|os.O_APPEND|fsguard.NoWait, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		// A FIFO would take the lines and, full, hold arena forever.
		f.Close()
		return nil, fsguard.NotRegular(path, st.Mode())
	}
	l := &resultsLog{f: f}
	if st.Size() == 0 {
		if _, err := f.WriteString(resultsHeader + "\n"); err != nil {
			f.Close()
			return nil, err
		}
		return l, nil
	}
	first, err := bufio.NewReaderSize(io.NewSectionReader(f, 0, maxResultsLine), maxResultsLine).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch strings.TrimSuffix(first, "\n") {
	case oldResultsHeader:
		l.short = true
	}
	return l, nil
}

// add appends g's line, in one write, and syncs it to the disk.
func (l *resultsLog) add(g *finished) error {
	line := resultsLine(g)
	if l.short {
		line = line[:strings.LastIndexByte(line[:strings.LastIndexByte(line, '\t')], '\t')]
	}
	if _, err := l.f.WriteString(line + "\n"); err != nil {
		return err
	}
	return l.f.Sync()
}

// Close closes the file.
func (l *resultsLog) Close() error { return l.f.Close() }

// tsvField makes s one field of a line: tabs and line breaks become spaces.
func tsvField(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// pgnResult is the first seat's result of a game as PGN writes it.
func pgnResult(winner int) string {
	switch winner {
	case 0:
		return "1-0"
	case 1:
		return "0-1"
	case -1:
		return "1/2-1/2"
	}
	return "*"
}

// resultsLine is g's line of results.tsv.
func resultsLine(g *finished) string {
	j, r := g.job, g.result
	winner := "unfinished"
	switch r.Winner {
	case 0, 1:
		winner = j.Seats[r.Winner].Name
	case -1:
		winner = "draw"
	}
	fields := []string{
		strconv.Itoa(j.N), strconv.Itoa(g.pair.index), strconv.Itoa(j.Index),
		j.Seats[0].Name, j.Seats[1].Name, pgnResult(r.Winner), winner, r.Ending.String(), r.Detail,
		strconv.Itoa(r.Plies), r.Faults[0].String(), r.Faults[1].String(), r.Record,
		strconv.Itoa(r.Fallbacks[0]), strconv.Itoa(r.Fallbacks[1]),
	}
	for i, f := range fields {
		fields[i] = tsvField(f)
	}
	return strings.Join(fields, "\t")
}

// storedGame is a line of results.tsv read back.
type storedGame struct {
	N, Pairing, Index int
	Seats             [2]string
	Result            gameResult // Winner, Ending, Detail, Plies, Record, the faults' text and the fallback moves
	Short             bool       // the line is an earlier arena's, without the fallbacks columns
}

// readResults reads dir's results.tsv, if any: the last line of each game
// (a game played again after an interruption has a later line), by game
// number. A line cut short by a kill is ignored; any other malformed line is
// an error naming it. The files of earlier arenas (oldResultsHeader) are
// read too, their games without fallback moves.
func readResults(dir string) (map[int]storedGame, error) {
	path := filepath.Join(dir, resultsFileName)
	f, _, err := fsguard.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[int]storedGame{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[int]storedGame{}
	fields := strings.Count(resultsHeader, "\t") + 1 // the header's columns
	br := bufio.NewReaderSize(newBoundedReader(f, path, resultsFileName, maxResultsFile), maxResultsLine)
	for n := 1; ; n++ {
		b, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, io.EOF):
			return out, nil // b, if any, is a line cut short by a kill: that game is played again
		case errors.Is(err, bufio.ErrBufferFull):
			return nil, fmt.Errorf("%s:%d: a line over %d bytes", path, n, maxResultsLine)
		case err != nil:
			return nil, err
		}
		line := strings.TrimSuffix(string(b), "\n")
		switch {
		case n == 1 && line != resultsHeader && line != oldResultsHeader:
			return nil, fmt.Errorf("%s:1: not the header arena writes", path)
		case n == 1:
			fields = strings.Count(line, "\t") + 1
			continue
		case line == "":
			continue
		}
		g, err := parseResultsFields(line, fields)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out[g.N] = g
	}
}

// parseResultsLine reads one line of results.tsv, as resultsLine writes
// it.
func parseResultsLine(line string) (storedGame, error) {
	return parseResultsFields(line, strings.Count(resultsHeader, "\t")+1)
}

// parseResultsFields reads one line of a results.tsv whose header has want
// columns: resultsHeader's, or the 13 of an earlier arena's (no fallbacks).
func parseResultsFields(line string, want int) (storedGame, error) {
	f := strings.Split(line, "\t")
	if len(f) != want {
		return storedGame{}, fmt.Errorf("%d fields, want %d", len(f), want)
	}
	var g storedGame
	var err error
	num := func(s, what string) int {
		n, e := strconv.Atoi(s)
		if e != nil && err == nil {
			err = fmt.Errorf("%s %q is not a number", what, s)
		}
		return n
	}
	g.N, g.Pairing, g.Index = num(f[0], "game"), num(f[1], "pairing"), num(f[2], "index")
	g.Seats = [2]string{f[3], f[4]}
	g.Result.Plies = num(f[9], "plies")
	if len(f) > 14 {
		g.Result.Fallbacks = [2]int{num(f[13], "first_fallbacks"), num(f[14], "second_fallbacks")}
	} else {
		g.Short = true
	}
	if err != nil {
		return storedGame{}, err
	}
	switch f[5] {
	case "1-0":
		g.Result.Winner = 0
	case "0-1":
		g.Result.Winner = 1
	case "1/2-1/2":
		g.Result.Winner = -1
	case "*":
		g.Result.Winner = -2
	default:
		return storedGame{}, fmt.Errorf("result %q is none of 1-0, 0-1, 1/2-1/2, *", f[5])
	}
	g.Result.Detail, g.Result.Record = f[8], f[12]
	for s, text := range f[10:12] {
		g.Result.Faults[s] = parseFault(text)
	}
	e, err := parseEnding(f[7])
	if err != nil {
		return storedGame{}, err
	}
	// An earlier arena's platform word for a forfeit: the fault decides.
	g.Result.Ending = settleEnding(g.Result, e)
	return g, nil
}

// oldFaultWords are the fault kinds' words in the results.tsv of earlier
// arenas, which wrote "crashed: exit status 3" where arena now writes
// "crash, exit status 3".
var oldFaultWords = [...]string{
	faultStart:    "could not start",
	faultCrash:    "crashed",
	faultTimeout:  "timed out",
	faultIllegal:  "illegal move",
	faultProtocol: "disconnected",
}

// parseFault reads a fault as fault.String writes it, or as earlier arenas
// did (oldFaultWords).
func parseFault(s string) fault {
	for k := faultStart; k <= faultProtocol; k++ {
		if s == k.String() || s == oldFaultWords[k] {
			return fault{Kind: k}
		}
		if rest, ok := strings.CutPrefix(s, k.String()+", "); ok {
			return fault{Kind: k, Reason: rest}
		}
		if rest, ok := strings.CutPrefix(s, oldFaultWords[k]+": "); ok {
			return fault{Kind: k, Reason: rest}
		}
	}
	return fault{}
}
