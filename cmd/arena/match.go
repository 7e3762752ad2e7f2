package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/timer"
	"github.com/botarena/botarena/viewer"
)

// errInterrupted is returned when Ctrl-C (ctx) stopped a match or tournament
// before its last game; the games finished by then are recorded and the
// partial results printed.
var errInterrupted = errors.New("interrupted")

// defaultStartup is the -startup default: the time a program has to start,
// connect to its host and answer the handshake, as the platforms give.
const defaultStartup = 10 * time.Second

// runOptions are the command-line options of "arena match" and "arena
// tournament" that are not matchConfig's.
type runOptions struct {
	jobs   int       // -j: games played at once
	web    string    // -web: the viewer's address, "" for none
	resume string    // -resume: the records directory of a run to go on with, "" for a new run
	shard  shardSpec // -shard I/N (tournament): play only that slice of the schedule

	sprt sprtFlag // -sprt (match only): the test, nil without one
}

// newRunFlags makes the flag set shared by match and tournament, bound to cfg
// and o. The game's own flags are added too.
func newRunFlags(cmd string, def *gameDef, cfg *matchConfig, o *runOptions, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("arena "+cmd+" "+def.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	defGames := 2
	fs.IntVar(&cfg.Games, "games", defGames, "number of games per pairing")
	fs.BoolVar(&cfg.Swap, "swap", true, "swap who moves first after each game (先後互換); -swap=false keeps the order given")
	fs.StringVar(&cfg.Time, "time", def.DefaultTime, "time control in timer's text form: none, 900s, 900s+2s, 600s+10s/move, 600s+60s/5, 5s/move, \"900s 30s/move\"")
	fs.StringVar(&cfg.Rules, "rules", def.Presets[0], "rule preset: "+strings.Join(def.Presets, ", "))
	fs.IntVar(&cfg.MaxPlies, "plies", 0, "ply limit (0: the preset's)")
	fs.StringVar(&cfg.Start, "start", "", "a record file to start every game from (a mid-game position); a regular file of at most 4 MiB, a pipe or device is refused")
	fs.StringVar(&cfg.Openings, "openings", "", "a `file` of openings, one a line ('#' starts a comment), each played by every pairing once with each colour: "+openingsHelp(def.Name))
	fs.StringVar(&cfg.OpeningsOrder, "openings-order", openingsSequential, "the order of the -openings: sequential (the file's) or random (shuffled by -seed)")
	fs.DurationVar(&cfg.Startup, "startup", defaultStartup, "how long a program has to start, connect and finish its handshake before its first move (raise it for an engine that loads a large table first)")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the games and the built-in bots (0: a random seed, printed)")
	fs.StringVar(&cfg.Out, "out", "", "directory for the records (default arena-records/<game>-<date>-<time>)")
	fs.BoolVar(&cfg.Verbose, "v", false, "log the referees' events to standard error")
	fs.StringVar(&o.web, "web", "", "serve the web viewer on this address (\":8080\"), live boards and replays; arena then stays up until Ctrl-C")
	jobs := runtime.NumCPU()
	if cmd == "match" {
		jobs = 1 // a match is usually watched game by game
	}
	fs.IntVar(&o.jobs, "j", jobs, "games played at once")
	if cmd == "tournament" {
		fs.Var(&o.shard, "shard", "play only shard `I/N` of the tournament: the I-th of N disjoint slices of its games, I counted from 0 (as Kubernetes' JOB_COMPLETION_INDEX), with the game numbers, seeds and record names of a whole run with the same -seed (which it needs); \"arena merge\" joins the shards' directories")
	}
	fs.StringVar(&o.resume, "resume", "", "go on with the run whose records are in this `directory` (after Ctrl-C or a crash): play only its unplayed games, with its players, flags and seed; -j, -web and -v may be given anew. A line of results.tsv is believed only if its game's game.json says the same, in a run.json unchanged since")
	if cmd == "match" {
		addSPRTFlag(fs, &o.sprt)
	}
	if def.Flags != nil {
		def.Flags(fs)
	}
	return fs
}

// parseInterleaved parses flags that may come before, between and after the
// positional arguments, which it returns in order. An argument after "--" is
// positional even if it starts with "-".
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		before := len(args)
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := before - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parsePlayer reads one player spec of game def: a built-in bot's name, or a
// program as "PROTOCOL:COMMAND ARGS", or a path to a program (which then
// speaks the game's first protocol). "NAME=SPEC" names the player. Only the
// syntax is checked here: a program that is missing loses its games.
func parsePlayer(def *gameDef, spec string) (*playerSpec, error) {
	p := &playerSpec{Spec: spec}
	body := spec
	if i := strings.IndexByte(spec, '='); i > 0 && !strings.ContainsAny(spec[:i], ":/ \t") {
		p.Name, body = spec[:i], spec[i+1:]
	}
	accepted := func() string {
		return fmt.Sprintf("built-in players: %s; or a program as PROTOCOL:COMMAND with PROTOCOL one of %s (a path such as ./bot speaks %s); or human, a person on the -web page; NAME=... names a player",
			strings.Join(def.Builtins, ", "), strings.Join(def.Protocols, ", "), def.Protocols[0])
	}
	switch {
	case strings.TrimSpace(body) == "":
		return nil, fmt.Errorf("empty player %q (%s)", spec, accepted())
	case body == humanPlayer:
		p.Human = true
		if p.Name == "" {
			p.Name = humanPlayer
		}
		return p, nil
	case slices.Contains(def.Builtins, body):
		p.Builtin = body
		if p.Name == "" {
			p.Name = body
		}
		return p, nil
	}
	proto, command, hasProto := strings.Cut(body, ":")
	if hasProto && !strings.ContainsAny(proto, "/\\ \t.") {
		if !slices.Contains(def.Protocols, proto) {
			return nil, fmt.Errorf("player %q: unknown protocol %q for %s (%s)", spec, proto, def.Name, accepted())
		}
	} else {
		proto, command = def.Protocols[0], body
		if _, err := os.Stat(command); err != nil && !strings.ContainsAny(command, "/\\ \t") {
			return nil, fmt.Errorf("unknown player %q (%s)", spec, accepted())
		}
	}
	p.Protocol = proto
	p.Command = strings.Fields(command)
	if len(p.Command) == 0 {
		return nil, fmt.Errorf("player %q: no program after %q (%s)", spec, proto+":", accepted())
	}
	if p.Name == "" {
		p.Name = programName(def, p.Command)
	}
	return p, nil
}

// programName is the name of a program player run as command: its
// executable's base name ("./engine 5" is engine, "wrap.sh exec.final" is
// wrap.sh); for an interpreter, the script's name without its extension
// ("python3 -u bot.py" is bot, "java -jar bot.jar" is bot); for "arena bot
// <game> <name>", the built-in's name.
func programName(def *gameDef, command []string) string {
	exe := filepath.Base(command[0])
	if i := slices.Index(command, "bot"); i > 0 && i+2 < len(command) && command[i+1] == def.Name && strings.HasPrefix(exe, "arena") {
		return command[i+2]
	}
	if !isInterpreter(exe) {
		return exe
	}
	for _, a := range command[1:] {
		if !strings.HasPrefix(a, "-") {
			return strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
		}
	}
	return exe
}

// isInterpreter reports whether exe, an executable's base name, runs a
// script or a package named by its first argument that is not a flag.
func isInterpreter(exe string) bool {
	name := strings.TrimSuffix(strings.ToLower(exe), ".exe")
	name = strings.TrimRight(name, "0123456789.") // python3.12, pypy3, node18
	switch name {
	case "python", "pypy", "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "lua", "luajit",
		"java", "sh", "bash", "dash", "zsh", "ksh", "julia", "rscript", "dotnet", "mono", "tclsh", "wish", "racket", "guile", "sbcl", "ocaml", "go":
		return true
	}
	return false
}

// uniqueNames makes the players' names distinct by suffixing repeats with
// -2, -3, ...
func uniqueNames(players []*playerSpec) {
	seen := map[string]int{}
	for _, p := range players {
		seen[p.Name]++
		if n := seen[p.Name]; n > 1 {
			for {
				name := fmt.Sprintf("%s-%d", p.Name, n)
				if seen[name] == 0 {
					p.Name = name
					seen[name]++
					break
				}
				n++
			}
		}
	}
}

// findGame returns the game called name, or an error listing the games.
func findGame(name string) (*gameDef, error) {
	var names []string
	for _, d := range gameDefs() {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", name, strings.Join(names, ", "))
}

// preparedRun is a match or tournament ready to play.
type preparedRun struct {
	cmd     string // match or tournament
	cfg     *matchConfig
	o       runOptions
	r       runner
	resumed bool       // -resume: cfg.Out holds the run's earlier games
	rec     *runRecord // run.json: what each game's game.json names as its run
	lock    *runLock   // the hold of cfg.Out, released by close
}

// close releases the run's directory.
func (pr *preparedRun) close() error {
	if pr.cfg.run != nil {
		pr.cfg.run.Close()
	}
	return pr.lock.Close()
}

// prepareRun parses the command line of a match or tournament of def:
// options, players, the runner and the output directory, where it writes
// run.json for a new run. With -resume it reads the run from its directory
// instead. Help (-h) goes to stdout.
func prepareRun(cmd string, def *gameDef, args []string, stdout, stderr io.Writer) (*preparedRun, error) {
	return prepare(cmd, def, args, stdout, stderr, false)
}

// prepare is prepareRun; resumed says that args are a run's own, read from
// its run.json by resumeRun.
func prepare(cmd string, def *gameDef, args []string, stdout, stderr io.Writer, resumed bool) (*preparedRun, error) {
	cfg := &matchConfig{Game: def, Stderr: stderr}
	var o runOptions
	fs := newRunFlags(cmd, def, cfg, &o, stderr)
	fs.Usage = func() {
		if cmd == "match" {
			fmt.Fprintf(stderr, "usage: arena match %s [flags] [player player]\n\n", def.Name)
			fmt.Fprintf(stderr, "With no players: %s vs %s.\n", def.Defaults[0], def.Defaults[1])
		} else {
			fmt.Fprintf(stderr, "usage: arena tournament %s [flags] player player [player...]\n\n", def.Name)
		}
		fmt.Fprintf(stderr, "A player is a built-in bot (%s), or a program as PROTOCOL:COMMAND with PROTOCOL one of %s\n(a path alone speaks %s); NAME=PLAYER names it.\n",
			strings.Join(def.Builtins, ", "), strings.Join(def.Protocols, ", "), def.Protocols[0])
		fmt.Fprintf(stderr, "\n%s\n", mctsTimeHelp)
		if def.ProgramHelp != "" {
			fmt.Fprintf(stderr, "\n%s\n", def.ProgramHelp)
		}
		fmt.Fprintf(stderr, "\nflags:\n")
		fs.PrintDefaults()
	}
	specs, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	if o.resume != "" && !resumed {
		return resumeRun(cmd, def, fs, o.resume, specs, stdout, stderr)
	}
	switch {
	case cmd == "match" && len(specs) > 2:
		return nil, fmt.Errorf("a match has two players, got %d: %q", len(specs), specs)
	case cmd == "match" && len(specs) == 0:
		specs = []string{def.Defaults[0], def.Defaults[1]}
	case cmd == "tournament" && len(specs) < 2:
		return nil, fmt.Errorf("a tournament needs at least two players, got %d", len(specs))
	}
	for _, s := range specs {
		p, err := parsePlayer(def, s)
		if err != nil {
			return nil, err
		}
		cfg.Players = append(cfg.Players, p)
	}
	if cmd == "match" && len(specs) == 1 {
		// A second player taken from the defaults would often be the same
		// bot: a match against itself, asked for by nobody.
		other := def.Defaults[1]
		if cfg.Players[0].Builtin == other {
			other = def.Defaults[0]
		}
		return nil, fmt.Errorf("a match has two players, got one (%s): name the second (arena match %s %s %s), or none for %s vs %s",
			specs[0], def.Name, specs[0], other, def.Defaults[0], def.Defaults[1])
	}
	uniqueNames(cfg.Players)
	if err := prepareSPRT(fs, cfg, &o.sprt); err != nil {
		return nil, err
	}
	switch {
	case cfg.Games < 1:
		return nil, fmt.Errorf("-games %d: play at least one game", cfg.Games)
	case cfg.MaxPlies < 0:
		return nil, fmt.Errorf("-plies %d: a ply limit is 0 (the preset's) or more", cfg.MaxPlies)
	case cfg.Startup <= 0:
		return nil, fmt.Errorf("-startup %v: give a program some time to start", cfg.Startup)
	case o.jobs < 1:
		return nil, fmt.Errorf("-j %d: play at least one game at a time", o.jobs)
	case !slices.Contains(def.Presets, cfg.Rules):
		return nil, fmt.Errorf("-rules %q: unknown preset for %s (presets: %s)", cfg.Rules, def.Name, strings.Join(def.Presets, ", "))
	}
	if slices.ContainsFunc(cfg.Players, func(p *playerSpec) bool { return p.Human }) {
		if o.web == "" {
			return nil, fmt.Errorf("a person (player %s) plays on the web viewer's page: give -web ADDR (-web :8080, say), and open the link printed for each game", humanPlayer)
		}
		timeGiven := false
		fs.Visit(func(f *flag.Flag) { timeGiven = timeGiven || f.Name == "time" })
		if !timeGiven && def.HumanTime != "" {
			cfg.Time = def.HumanTime
		}
	}
	if cfg.Time != "" {
		if _, err := timer.Parse(cfg.Time); err != nil {
			return nil, fmt.Errorf("-time %q: %w (accepted: none, 900s, 900s+2s, 600s+10s/move, 600s+60s/5, 5s/move, \"900s 30s/move\", with \" whole-seconds\" to charge whole seconds)", cfg.Time, err)
		}
	}
	if err := loadOpenings(cfg, resumed); err != nil {
		return nil, err
	}
	if cfg.Start != "" {
		if st, err := os.Stat(cfg.Start); err != nil {
			return nil, fmt.Errorf("-start: %w", err)
		} else if st.IsDir() && def.Name != "pdd" {
			return nil, fmt.Errorf("-start %s: a directory; give a record file", cfg.Start)
		}
	}
	if cfg.Seed == 0 {
		if o.shard.Count > 0 {
			return nil, fmt.Errorf("-shard %s needs -seed: every shard must play the same tournament, and a seed drawn at random differs from shard to shard", o.shard.String())
		}
		cfg.Seed = rand.Uint64() | 1
	}
	if def.NewRunner == nil {
		return nil, fmt.Errorf("%s matches are not available", def.Name)
	}
	r, err := def.NewRunner(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Out == "" {
		stamp := time.Now().Format("20060102-150405")
		if o.shard.Count > 0 {
			// Shards started together on one machine get a directory each.
			stamp += fmt.Sprintf("-shard-%d-of-%d", o.shard.Index, o.shard.Count)
		}
		cfg.Out = filepath.Join("arena-records", def.Name+"-"+stamp)
		for i := 2; ; i++ {
			if _, err := os.Stat(cfg.Out); errors.Is(err, os.ErrNotExist) {
				break
			}
			cfg.Out = filepath.Join("arena-records", fmt.Sprintf("%s-%s-%d", def.Name, stamp, i))
		}
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("-out: %w", err)
	}
	// One writer: the hold is taken before anything is read back or
	// written, so that a run another arena is playing there is named as
	// such, and one that started meanwhile is seen.
	lock, err := lockRun(cfg.Out, commandLine(cmd, def, args, resumed, cfg.Out))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, runFileName)); err == nil && !resumed {
		lock.Close()
		return nil, fmt.Errorf("-out %s holds a run already: go on with it with -resume %s, or give another directory", cfg.Out, cfg.Out)
	}
	if cfg.run, err = openRunDir(cfg.Out); err != nil {
		lock.Close()
		return nil, fmt.Errorf("-out: %w", err)
	}
	var rec *runRecord
	if !resumed {
		rec, err = newRunRecord(cmd, cfg, fs)
		if err == nil {
			err = saveOpenings(cfg) // before run.json: a run that has one has its openings
		}
		if err == nil {
			err = writeRunRecordIn(cfg.run.root, rec)
		}
		if err != nil {
			cfg.run.Close()
			lock.Close()
			return nil, fmt.Errorf("-out %s: %w", cfg.Out, err)
		}
	}
	return &preparedRun{cmd: cmd, cfg: cfg, o: o, r: r, resumed: resumed, rec: rec, lock: lock}, nil
}

// commandLine is the command line of a run as its hold names it, each
// argument bounded: "arena tournament -resume DIR" for a resumed run.
func commandLine(cmd string, def *gameDef, args []string, resumed bool, dir string) string {
	if resumed {
		return "arena " + cmd + " -resume " + dir
	}
	parts := []string{"arena", cmd, def.Name}
	for _, a := range args {
		if len(a) > 64 {
			a = a[:64] + "..."
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// resumeRun prepares the run recorded in dir (-resume dir) with what fs
// holds of the resume command line: no players, and of the flags only those
// that do not change the games (-j, -web, -v).
func resumeRun(cmd string, def *gameDef, fs *flag.FlagSet, dir string, specs []string, stdout, stderr io.Writer) (*preparedRun, error) {
	if len(specs) > 0 {
		return nil, fmt.Errorf("-resume %s plays the run's own players; give none (got %q)", dir, specs)
	}
	var extra []string
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "resume":
		case runOnlyFlag(f.Name) && f.Name != "out" && f.Name != "seed":
			extra = append(extra, "-"+f.Name+"="+f.Value.String())
		default:
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return nil, fmt.Errorf("-resume %s plays the run with its own flags and seed; give only -j, -web or -v with it (got %s)", dir, strings.Join(bad, " "))
	}
	rec, err := readRunRecord(dir)
	if err != nil {
		return nil, fmt.Errorf("-resume: %w", err)
	}
	if rec.Command != cmd || rec.Game != def.Name {
		return nil, fmt.Errorf("-resume %s: the run there is \"arena %s %s\", not arena %s %s", dir, rec.Command, rec.Game, cmd, def.Name)
	}
	pr, err := prepare(cmd, def, append(extra, rec.args(dir)...), stdout, stderr, true)
	if err != nil {
		return nil, fmt.Errorf("-resume %s: %w", dir, err)
	}
	pr.rec = rec
	return pr, nil
}

// pairing is two players who meet: the games alternate seats when Swap.
type pairing struct {
	index int // the pairing's place in the run, from 0
	a, b  int // indices into matchConfig.Players
}

// finished is a game played, from the schedule's point of view.
type finished struct {
	job      *gameJob
	pair     pairing
	started  bool // Play was called, or the result was read back
	restored bool // the result is an earlier run's, read from results.tsv (-resume)
	result   gameResult
	wall     time.Duration // how long Play took (0 for a restored game)
}

// schedule lists every game of the run, numbered from 1 in the order they
// are played: round by round, a round being game pair k (games 2k and 2k+1,
// the seats swapped) of every pairing in turn, so that a run cut short has
// played every pairing about as often. Each pairing plays cfg.Games games,
// the first with a moving first, then alternating when Swap; a game's seed
// and index within its pairing do not depend on the order. With one pairing
// (a match) the games are in their pairing's order.
func schedule(cfg *matchConfig, pairs []pairing) []finished {
	var out []finished
	for round := 0; 2*round < cfg.Games; round++ {
		for _, pr := range pairs {
			seed := cfg.Seed ^ uint64(pr.index)*0x9E3779B97F4A7C15
			for g := 2 * round; g < min(2*round+2, cfg.Games); g++ {
				first, second := cfg.Players[pr.a], cfg.Players[pr.b]
				if cfg.Swap && g%2 == 1 {
					first, second = second, first
				}
				job := &gameJob{
					N:     len(out) + 1,
					Index: g,
					Seats: [2]*playerSpec{first, second},
					Seed:  seed,
				}
				job.ID = fmt.Sprintf("%s-%d", cfg.Game.Name, job.N)
				job.Dir = filepath.Join(cfg.Out, gameDirName(job))
				out = append(out, finished{pair: pr, job: job})
			}
		}
	}
	return out
}

// gameDirName is the name of job's directory in the run's directory:
// "007-alice-vs-bob".
func gameDirName(job *gameJob) string {
	return fmt.Sprintf("%03d-%s-vs-%s", job.N, safeName(job.Seats[0].Name), safeName(job.Seats[1].Name))
}

// roundRobin is the pairings of a tournament of n players: every pair of
// players once, in the order (0,1), (0,2), ..., (1,2), ...
func roundRobin(n int) []pairing {
	var pairs []pairing
	for i := range n {
		for j := i + 1; j < n; j++ {
			pairs = append(pairs, pairing{len(pairs), i, j})
		}
	}
	return pairs
}

// restore marks the games that stored (an earlier run's results.tsv) holds
// a result of as played, with that result. A stored game that is not the
// schedule's (other players in its seats) is an error: the directory holds
// another run.
func restore(games []finished, stored map[int]storedGame) (int, error) {
	n := 0
	for i := range games {
		g := &games[i]
		s, ok := stored[g.job.N]
		if !ok || s.Result.Winner < -1 {
			continue
		}
		if s.Seats != [2]string{g.job.Seats[0].Name, g.job.Seats[1].Name} || s.Index != g.job.Index || s.Pairing != g.pair.index {
			return 0, fmt.Errorf("%s: game %d is %s vs %s (pairing %d, game %d of it); this run's game %d is %s vs %s (pairing %d, game %d)",
				resultsFileName, s.N, s.Seats[0], s.Seats[1], s.Pairing, s.Index, g.job.N, g.job.Seats[0].Name, g.job.Seats[1].Name, g.pair.index, g.job.Index)
		}
		g.started, g.restored, g.result = true, true, s.Result
		n++
	}
	return n, nil
}

// writeProgramOutput keeps what a program printed, as <name>.stdout and
// <name>.stderr in the game's directory, each when not empty (at most
// proc.LogLimit bytes of each, as the host kept them): the replay page
// shows them.
func writeProgramOutput(job *gameJob, name string, stdout, stderr []byte) {
	for ext, b := range map[string][]byte{".stdout": stdout, ".stderr": stderr} {
		if len(b) > 0 {
			writeGameFile(job, safeName(name)+ext, b)
		}
	}
}

// safeName keeps letters, digits, '-', '_' and '.' of s, for file names.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}

// playAll plays the scheduled games that are not restored, o.jobs at a
// time; after each it writes the game's result.txt and game.json (naming
// rec, the run, when not nil), appends its line to results (synced, so
// that a kill loses no finished game) and calls done (from one goroutine at a time). It
// stops starting games when ctx is done, or when stop (if not nil, called
// like done) says not to start the next; games cut short come back with
// Winner -2.
func playAll(ctx context.Context, cfg *matchConfig, rec *runRecord, r runner, games []finished, jobs int, w viewer.Watcher, seats *webSeats, results *resultsLog, done func(*finished), stop func(next *finished) bool) error {
	var todo []*finished
	for i := range games {
		if !games[i].restored {
			todo = append(todo, &games[i])
		}
	}
	var (
		mu      sync.Mutex
		firstEr error
		next    int
		wg      sync.WaitGroup
	)
	// A program's faults are in the game's result line; the referees'
	// warnings about them would say it twice.
	level := slog.LevelError
	if cfg.Verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(cfg.Stderr, &slog.HandlerOptions{Level: level}))
	// arena's own files in a game's directory are reached through the
	// run's directory, held open as an os.Root: a program that puts a
	// symlink in place of its game's directory, or of the run's, cannot
	// make arena write elsewhere.
	root := cfg.run.root
	for range min(jobs, len(todo)) {
		wg.Go(func() {
			for {
				mu.Lock()
				if next == len(todo) || ctx.Err() != nil || firstEr != nil || stop != nil && stop(todo[next]) {
					mu.Unlock()
					return
				}
				// A run whose directory a program moved or replaced
				// plays no further game: its directory would be the
				// program's choice.
				if err := cfg.run.check(); err != nil {
					firstEr = err
					mu.Unlock()
					return
				}
				g := todo[next]
				next++
				mu.Unlock()
				g.started = true
				job := g.job
				job.Watch = w
				job.Web = seats
				job.Log = logger.With("game", job.N)
				// A game an earlier run began and did not finish starts
				// afresh: what it left is removed.
				name := filepath.Base(job.Dir)
				err := root.RemoveAll(name)
				if err == nil {
					err = root.Mkdir(name, 0o755)
				}
				var dirInfo fs.FileInfo
				if err == nil {
					job.Root, err = root.OpenRoot(name)
				}
				if err == nil {
					dirInfo, err = job.Root.Stat(".")
				}
				if err != nil {
					g.result = gameResult{Winner: -2, Err: err}
				} else {
					g.result = r.Play(ctx, job)
					// A program that moved its game's directory or put a
					// symlink in its place: arena's files went to the
					// directory it made, and the run stops (the PDD
					// referee puts its game's directory back and makes
					// the swap the program's violation).
					// (A swap of the run's directory, checked below, moves
					// the game's too.)
					if err := checkGameDir(job.Dir, dirInfo); err != nil && g.result.Err == nil && cfg.run.check() == nil {
						g.result.Err = err
					}
				}
				// The run's directory moved or replaced during the game:
				// the game's result says it (the program that did it
				// has lost already where its referee checks its
				// directory, as the PDD referee does), and the run stops.
				if err := cfg.run.check(); err != nil && g.result.Err == nil {
					g.result.Err = err
				}
				// The result in words beside the platform's record, which
				// may have no place for why a game ended.
				if job.Root != nil {
					if err := writeInRoot(job.Root, "result.txt", []byte(describe(cfg.Game, g)+"\n")); err != nil && g.result.Err == nil {
						g.result.Err = err
					}
					job.Root.Close()
					job.Root = nil
				}
				// arena's own record of the game, against which -resume
				// and merge check its line of results.tsv.
				if rec != nil && g.result.Winner >= -1 {
					if err := writeGameRecord(root, name, rec, g); err != nil && g.result.Err == nil {
						g.result.Err = err
					}
				}
				mu.Lock()
				if err := results.add(g); err != nil && g.result.Err == nil {
					g.result.Err = fmt.Errorf("%s: %w", resultsFileName, err)
				}
				if g.result.Err != nil && firstEr == nil {
					firstEr = fmt.Errorf("game %d: %w", job.N, g.result.Err)
				}
				done(g)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return firstEr
}

// describe writes a game's result as one line: the players, how it ended
// in arena's words (endingStatus), the plies, each program's fault and
// fallback moves, and the record's path (under the run's directory, as -out
// gave it).
func describe(def *gameDef, g *finished) string {
	j, r := g.job, g.result
	var b strings.Builder
	fmt.Fprintf(&b, "game %d: %s (%s) vs %s (%s): ", j.N, j.Seats[0].Name, def.Seats[0], j.Seats[1].Name, def.Seats[1])
	b.WriteString(endingStatus([2]string{j.Seats[0].Name, j.Seats[1].Name}, r))
	if r.Plies == 1 {
		b.WriteString(", 1 ply")
	} else {
		fmt.Fprintf(&b, ", %d plies", r.Plies)
	}
	for s, f := range r.Faults {
		if f.Kind != noFault {
			fmt.Fprintf(&b, "; %s: %s", j.Seats[s].Name, f)
		}
	}
	for s, n := range r.Fallbacks {
		if n > 0 {
			fmt.Fprintf(&b, "; %s: %s", j.Seats[s].Name, fallbackNote(n))
		}
	}
	b.WriteString(openingNote(j))
	if r.Err != nil {
		fmt.Fprintf(&b, "; arena error: %v", r.Err)
	}
	if r.Record != "" {
		fmt.Fprintf(&b, "; record %s", r.Record)
	}
	return b.String()
}

// fallbackNote says that n of a player's moves were fallback moves: "3
// fallback moves (the player missed its deadline or failed; the program
// moved in its place)".
func fallbackNote(n int) string {
	return plural(n, "fallback move") + " (the player missed its deadline or failed; the program moved in its place)"
}

// outcomeFor is the game's result for player p: 1 a win, 0 a draw, -1 a
// loss; ok is false when p did not play or the game is unfinished.
func outcomeFor(g *finished, p *playerSpec) (int, bool) {
	seat := slices.Index(g.job.Seats[:], p)
	if seat < 0 || g.result.Winner < -1 {
		return 0, false
	}
	switch g.result.Winner {
	case -1:
		return 0, true
	case seat:
		return 1, true
	}
	return -1, true
}

// startWatcher starts the viewer when o.web asks for it. seats is where
// persons play (human.go), nil without -web.
func startWatcher(ctx context.Context, o runOptions, cfg *matchConfig, stdout io.Writer) (w viewer.Watcher, seats *webSeats, wait func(), err error) {
	if o.web == "" {
		return viewer.Discard{}, nil, func() {}, nil
	}
	sv, wait, err := startViewer(ctx, o.web, stdout, []string{cfg.Out})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("-web %s: %w", o.web, err)
	}
	return sv, &webSeats{host: sv, url: sv.url, out: stdout}, wait, nil
}

// holdViewer keeps the viewer up after the games until ctx is done.
func holdViewer(ctx context.Context, o runOptions, stdout io.Writer, wait func()) {
	if o.web == "" {
		return
	}
	if ctx.Err() == nil {
		fmt.Fprintln(stdout, "The viewer stays up for replays; press Ctrl-C to quit.")
		<-ctx.Done()
	}
	wait()
}

// runMatch carries out "arena match <game> ...": games between two players,
// one at a time unless -j says otherwise, a line per game, and the totals
// with the Elo difference.
func runMatch(ctx context.Context, def *gameDef, args []string, stdout, stderr io.Writer) error {
	pr, err := prepareRun("match", def, args, stdout, stderr)
	if err != nil {
		return err
	}
	defer pr.close()
	cfg := pr.cfg
	a, b := cfg.Players[0], cfg.Players[1]
	var t tally
	var ended []gameResult
	played := 0
	hooks := runHooks{
		header: func(games []finished) {
			fmt.Fprintf(stdout, "%s match: %s vs %s, %s, rules %s, time %s, seed %d\nRecords: %s\n",
				def.Title, a.Name, b.Name, plural(len(games), "game"), cfg.Rules, orNone(cfg.Time), cfg.Seed, cfg.Out)
		},
		done: func(g *finished) {
			fmt.Fprintln(stdout, describe(def, g))
			ended = append(ended, g.result)
			if res, ok := outcomeFor(g, a); ok {
				t.add(res)
				played++
			}
		},
		table: func() []tallyRow {
			lost := tally{Wins: t.Losses, Draws: t.Draws, Losses: t.Wins}
			rows := []tallyRow{{a.Name, t}, {b.Name, lost}}
			fmt.Fprintf(stdout, "\nResult of %s vs %s after %s:\n", a.Name, b.Name, plural(played, "game"))
			width := max(len(a.Name), len(b.Name))
			for _, row := range rows {
				fmt.Fprintf(stdout, "  %-*s  %d wins, %d draws, %d losses, score %s/%d%s\n", width, row.name,
					row.t.Wins, row.t.Draws, row.t.Losses, formatPoints(row.t.points()), row.t.games(), percent(row.t))
			}
			d, m := t.eloDiff()
			fmt.Fprintf(stdout, "  Elo difference (%s - %s): %s\n", a.Name, b.Name, formatElo(d, m))
			if e := endingCounts(ended); e != "" {
				fmt.Fprintf(stdout, "  Endings: %s\n", e)
			}
			return rows
		},
	}
	if test := pr.o.sprt.test; test != nil {
		hooks = newSPRTRun(*test, a, b, stdout).wrap(ctx, hooks)
	}
	return execute(ctx, pr, []pairing{{0, 0, 1}}, stdout, hooks)
}

// tallyRow is a player's line in a summary.
type tallyRow struct {
	name string
	t    tally
}

// runTournament carries out "arena tournament <game> ...": a round robin,
// every pair of players meeting in -games games, -j games at a time, with a
// progress line and a table at the end.
func runTournament(ctx context.Context, def *gameDef, args []string, stdout, stderr io.Writer) error {
	pr, err := prepareRun("tournament", def, args, stdout, stderr)
	if err != nil {
		return err
	}
	defer pr.close()
	cfg := pr.cfg
	pairs := roundRobin(len(cfg.Players))
	names := make([]string, len(cfg.Players))
	for i, p := range cfg.Players {
		names[i] = p.Name
	}
	tallies := make([]tally, len(cfg.Players))
	done, total := 0, 0
	began := time.Now()
	progress := progressWriter(stderr)
	eta := etaClock{jobs: pr.o.jobs}
	return execute(ctx, pr, pairs, stdout, runHooks{
		header: func(games []finished) {
			total = len(games)
			fmt.Fprintf(stdout, "%s round robin: %s; %d games per pairing, %d games, %d at a time, rules %s, time %s, seed %d\n",
				def.Title, strings.Join(names, ", "), cfg.Games, len(pairs)*cfg.Games, pr.o.jobs, cfg.Rules, orNone(cfg.Time), cfg.Seed)
			if sh := pr.o.shard; sh.Count > 0 {
				fmt.Fprintf(stdout, "Shard %s (counted from 0): %s of the %d; \"arena merge\" joins the %d shards' directories\n",
					sh.String(), plural(len(games), "game"), len(pairs)*cfg.Games, sh.Count)
			}
			fmt.Fprintf(stdout, "Records: %s\n", cfg.Out)
		},
		done: func(g *finished) {
			done++
			for i, p := range cfg.Players {
				if res, ok := outcomeFor(g, p); ok {
					tallies[i].add(res)
				}
			}
			leader := 0
			for i := range tallies {
				if tallies[i].points() > tallies[leader].points() {
					leader = i
				}
			}
			eta.add(g)
			progress.update(fmt.Sprintf("[%d/%d games, %s, %s, leader %s %s/%d] %s", done, total,
				time.Since(began).Round(time.Second), eta.left(total-done), names[leader], formatPoints(tallies[leader].points()), tallies[leader].games(),
				describe(def, g)))
		},
		table: func() []tallyRow {
			progress.finish()
			rows := make([]tallyRow, len(cfg.Players))
			for i := range rows {
				rows[i] = tallyRow{names[i], tallies[i]}
			}
			printTable(stdout, rows)
			return rows
		},
	})
}

// runHooks are what a match and a tournament print of a run.
type runHooks struct {
	// header prints the run's first lines, once its games are known.
	header func(games []finished)
	// done counts a finished game (a restored one too) and shows it.
	done func(g *finished)
	// table prints the totals and returns the players' rows.
	table func() []tallyRow
	// stop, if not nil, says not to start next (playAll's stop).
	stop func(next *finished) bool
}

// execute plays a prepared run's pairings: it restores what an earlier run
// of a resumed run finished, plays the rest with results appended to
// results.tsv as each ends, prints the totals, writes results.txt, and
// reports a program that could not start in any of its games (so arena
// exits non-zero) or the interruption.
func execute(ctx context.Context, pr *preparedRun, pairs []pairing, stdout io.Writer, h runHooks) error {
	cfg := pr.cfg
	games := schedule(cfg, pairs)
	assignOpenings(cfg, games)
	// -shard: this run's slice of the whole run's games, with their
	// numbers, seeds and directories (and openings).
	games = pr.o.shard.of(games, len(pairs))
	restored := 0
	if pr.resumed {
		stored, err := readResults(cfg.Out)
		if err == nil {
			restored, err = restore(games, stored)
		}
		if err == nil {
			// A result is believed only when the game's own record says
			// the same, in a run.json its games were played in.
			err = checkStored(cfg.Out, pr.rec, cfg.Game, games, stored)
		}
		if err != nil {
			return fmt.Errorf("-resume %s: %w", cfg.Out, err)
		}
	}
	results, err := openResults(cfg.run.root, cfg.Out)
	if err != nil {
		return err
	}
	defer results.Close()
	h.header(games)
	noteContainment(stdout, cfg.Players)
	if pr.resumed {
		fmt.Fprintf(stdout, "Resumed: %d of %d games were played before; playing the other %d.\n", restored, len(games), len(games)-restored)
	}
	viewCtx, stopView := context.WithCancel(context.WithoutCancel(ctx))
	defer stopView()
	w, seats, wait, err := startWatcher(viewCtx, pr.o, cfg, stdout)
	if err != nil {
		return err
	}
	for i := range games {
		if games[i].restored {
			h.done(&games[i])
		}
	}
	unfinished := 0
	timed := &timedRunner{runner: pr.r, took: map[*gameJob]time.Duration{}}
	playErr := playAll(ctx, cfg, pr.rec, timed, games, pr.o.jobs, w, seats, results, func(g *finished) {
		if g.result.Winner == -2 {
			unfinished++
		}
		g.wall = timed.wall(g.job)
		h.done(g)
	}, h.stop)
	rows := h.table()
	if unfinished > 0 {
		fmt.Fprintf(stdout, "%d unfinished\n", unfinished)
	}
	if err := writeSummary(cfg, games, rows); err != nil && playErr == nil {
		playErr = err
	}
	if ctx.Err() != nil {
		played := 0
		for i := range games {
			if games[i].started && games[i].result.Winner >= -1 {
				played++
			}
		}
		fmt.Fprintf(stdout, "Interrupted: %d of %d games finished; go on with: arena %s -resume %s\n", played, len(games), pr.cmd, cfg.Out)
		stopView()
		wait()
		return errInterrupted
	}
	if playErr == nil {
		playErr = neverStarted(cfg, games)
	}
	holdViewer(ctx, pr.o, stdout, wait)
	return playErr
}

// timedRunner is a runner that keeps how long each game took to play, for
// the progress line's ETA.
type timedRunner struct {
	runner
	mu   sync.Mutex
	took map[*gameJob]time.Duration
}

// Play plays job with the runner and keeps its wall time.
func (t *timedRunner) Play(ctx context.Context, job *gameJob) gameResult {
	began := time.Now()
	res := t.runner.Play(ctx, job)
	t.mu.Lock()
	t.took[job] = time.Since(began)
	t.mu.Unlock()
	return res
}

// wall returns how long job took to play and forgets it.
func (t *timedRunner) wall(job *gameJob) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.took[job]
	delete(t.took, job)
	return d
}

// errNeverStarted is wrapped by the error of a run in which a program could
// not start in any of its games: the run is reported, and arena exits 1.
var errNeverStarted = errors.New("a program never started")

// neverStarted returns an error wrapping errNeverStarted that names every
// program that could not start in any game it was to play, with why; nil if
// there is none.
func neverStarted(cfg *matchConfig, games []finished) error {
	var msgs []string
	for _, p := range cfg.Players {
		if p.Builtin != "" || p.Human {
			continue
		}
		n, failed, why := 0, 0, ""
		for i := range games {
			g := &games[i]
			seat := slices.Index(g.job.Seats[:], p)
			if seat < 0 || !g.started || g.result.Winner < -1 && g.result.Faults[seat].Kind == noFault {
				continue
			}
			n++
			if f := g.result.Faults[seat]; f.Kind == faultStart {
				failed++
				why = f.Reason
			}
		}
		if n > 0 && failed == n {
			msgs = append(msgs, fmt.Sprintf("%s could not start in any of its %s (%s)", p.Name, plural(n, "game"), why))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", errNeverStarted, strings.Join(msgs, "; "))
}

// printTable writes the tournament table, best score first.
func printTable(w io.Writer, rows []tallyRow) {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b tallyRow) int {
		switch pa, pb := a.t.points()/float64(max(a.t.games(), 1)), b.t.points()/float64(max(b.t.games(), 1)); {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	width := len("Player")
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	fmt.Fprintf(w, "\n%4s  %-*s  %5s  %4s  %5s  %6s  %6s  %6s  %s\n", "Rank", width, "Player", "Games", "Wins", "Draws", "Losses", "Points", "Score", "Elo vs field")
	for i, r := range sorted {
		d, m := r.t.eloDiff()
		score := "-"
		if r.t.games() > 0 {
			score = fmt.Sprintf("%.1f%%", 100*r.t.points()/float64(r.t.games()))
		}
		fmt.Fprintf(w, "%4d  %-*s  %5d  %4d  %5d  %6d  %6s  %6s  %s\n", i+1, width, r.name, r.t.games(), r.t.Wins, r.t.Draws, r.t.Losses,
			formatPoints(r.t.points()), score, formatElo(d, m))
	}
}

// writeSummary writes results.txt in the records directory: a line per game
// played, as printed, and the table.
func writeSummary(cfg *matchConfig, games []finished, rows []tallyRow) error {
	var b strings.Builder
	for i := range games {
		if g := &games[i]; g.started {
			b.WriteString(describe(cfg.Game, g))
			b.WriteByte('\n')
		}
	}
	printTable(&b, rows)
	if cfg.run != nil {
		return writeInRoot(cfg.run.root, summaryFileName, []byte(b.String()))
	}
	root, err := os.OpenRoot(cfg.Out)
	if err != nil {
		return err
	}
	defer root.Close()
	return writeInRoot(root, summaryFileName, []byte(b.String()))
}

// writeInRoot writes a file of arena's within root afresh: whatever a
// program left at name (a symlink, a file it holds) is removed first, so
// the write lands in a new file inside root.
func writeInRoot(root *os.Root, name string, data []byte) error {
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return root.WriteFile(name, data, 0o644)
}

// plural writes "1 game", "2 games".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// orNone writes s, or "none" for "".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// formatPoints writes 7, 7.5.
func formatPoints(p float64) string {
	if p == float64(int(p)) {
		return fmt.Sprintf("%d", int(p))
	}
	return fmt.Sprintf("%.1f", p)
}

// percent writes " (75.0%)", or "" without games.
func percent(t tally) string {
	if t.games() == 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f%%)", 100*t.points()/float64(t.games()))
}

// etaClock estimates how long a run has left from the wall time of the
// games it has played so far (restored games, played by an earlier run, do
// not count) and the number of games played at once.
type etaClock struct {
	jobs   int           // -j
	played int           // games this run played to a result
	spent  time.Duration // the sum of their wall times
}

// add counts g if this run played it to a result.
func (e *etaClock) add(g *finished) {
	if !g.restored && g.result.Winner >= -1 {
		e.played++
		e.spent += g.wall
	}
}

// left writes the time left to play remaining games, e.g. "ETA 3m20s": the
// mean wall time of a game times remaining over the games played at once;
// "ETA ?" before the first game has ended.
func (e *etaClock) left(remaining int) string {
	switch {
	case remaining <= 0:
		return "ETA 0s"
	case e.played == 0:
		return "ETA ?"
	}
	mean := e.spent / time.Duration(e.played)
	return "ETA " + (mean * time.Duration(remaining) / time.Duration(max(1, min(e.jobs, remaining)))).Round(time.Second).String()
}

// progress shows how a tournament goes on standard error: on a terminal,
// one line rewritten after every game; otherwise a line per game.
type progress struct {
	w        io.Writer
	terminal bool
	last     int // the length of the line on the terminal
}

// progressWriter returns a progress display on stderr.
func progressWriter(stderr io.Writer) *progress {
	p := &progress{w: stderr}
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// update shows s, cut to 160 bytes on a terminal.
func (p *progress) update(s string) {
	if !p.terminal {
		fmt.Fprintln(p.w, s)
		return
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	fmt.Fprintf(p.w, "\r%-*s", p.last, s)
	p.last = len(s)
}

// finish ends the terminal's progress line.
func (p *progress) finish() {
	if p.terminal && p.last > 0 {
		fmt.Fprintln(p.w)
	}
}
