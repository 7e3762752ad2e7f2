package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
)

// openingsFile is the example openings file of a game, in testdata.
func openingsFile(game string) string {
	return filepath.Join("testdata", "openings", game+".txt")
}

// readTestOpenings parses the example openings file of def under its
// default rules.
func readTestOpenings(t *testing.T, def *gameDef) []opening {
	t.Helper()
	data, err := os.ReadFile(openingsFile(def.Name))
	if err != nil {
		t.Fatal(err)
	}
	list, err := parseOpenings(def.Name, def.Presets[0], openingsFile(def.Name), data)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// gameOpening reads which opening a game got from its opening.txt: the
// opening's number (0 for a game without the file) and its text.
func gameOpening(t *testing.T, g storedGame) (int, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(g.Result.Record), "opening.txt"))
	if os.IsNotExist(err) {
		return 0, ""
	}
	if err != nil {
		t.Fatal(err)
	}
	var n, line int
	var text string
	if _, err := fmt.Sscanf(string(data), "opening %d, line %d of the openings file\n", &n, &line); err != nil {
		t.Fatalf("game %d: opening.txt %q: %v", g.N, data, err)
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		text = strings.TrimSpace(string(data[i+1:]))
	}
	return n, text
}

// checkStartedFrom fails the test unless the record of game g shows that it
// started from opening o: its first moves are the opening's (Othello, PDD),
// its red sets are the opening's (Geister), its deal is (dark chess).
func checkStartedFrom(t *testing.T, game string, g storedGame, o *opening) {
	t.Helper()
	dir := filepath.Dir(g.Result.Record)
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("game %d: %v", g.N, err)
		}
		return data
	}
	switch game {
	case "othello":
		moves := strings.TrimSpace(string(read("moves.txt")))
		if !strings.HasPrefix(moves, o.othello.List) || len(moves) == len(o.othello.List) {
			t.Errorf("game %d: moves.txt %q does not go on from the opening %q", g.N, moves, o.othello.List)
		}
		// The transcript, from the TUS start, holds the opening's moves
		// then the game's.
		tr, err := record.ReadOthelloTranscript(bytes.NewReader(read(filepath.Base(g.Result.Record))), othello.TUS.Start)
		if err != nil {
			t.Fatalf("game %d: %v", g.N, err)
		}
		k := len(o.othello.Moves)
		if len(tr.Moves) != k+g.Result.Plies || !slices.Equal(tr.Moves[:k], o.othello.Moves) {
			t.Errorf("game %d: the transcript's %d moves do not start with the opening's %v then %d plies", g.N, len(tr.Moves), o.othello.Moves, g.Result.Plies)
		}
	case "geister":
		b, err := record.ReadGeisterBoard(bytes.NewReader(read("board.txt")))
		if err != nil {
			t.Fatalf("game %d: %v", g.N, err)
		}
		if b.Reds != o.geister {
			t.Errorf("game %d: board.txt's red sets are %v, the opening's %v", g.N, b.Reds, o.geister)
		}
		if g.Result.Plies == 0 {
			t.Errorf("game %d: no plies", g.N)
		}
	case "darkchess":
		var sc darkchessSidecar
		if err := json.Unmarshal(read("board.txt.json"), &sc); err != nil {
			t.Fatalf("game %d: %v", g.N, err)
		}
		if want := strings.Fields(o.darkchess.String())[4]; sc.Deal != want {
			t.Errorf("game %d: the sidecar's deal is %s, the opening's %s", g.N, sc.Deal, want)
		}
		if sc.Opening != o.String() {
			t.Errorf("game %d: the sidecar's opening is %q, want %q", g.N, sc.Opening, o.String())
		}
	case "pdd":
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(read(record.PDDStepLogFile)))
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		var want []string
		for _, s := range o.pdd.Log.Steps {
			want = append(want, s.String())
		}
		if len(lines) <= len(want) || !slices.Equal(lines[:len(want)], want) {
			t.Errorf("game %d: stepLog.txt %q does not go on from the opening %q", g.N, lines, want)
		}
	}
	// The record replays in the viewer.
	gameMoves(t, mustGame(t, game), g)
}

// mustGame is the gameDef called name.
func mustGame(t *testing.T, name string) *gameDef {
	t.Helper()
	def, err := findGame(name)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestOpeningsPlayed: for every game, a match with -openings plays each
// opening of the file once with each colour, in the file's order, the
// games of a pair with the seats swapped; each game starts from its
// opening (its record says so), and its result line names it.
func TestOpeningsPlayed(t *testing.T) {
	for _, def := range gameDefs() {
		t.Run(def.Name, func(t *testing.T) {
			skipPDDUnderRace(t, def)
			t.Parallel()
			list := readTestOpenings(t, def)
			n := 2 * len(list)
			games, dir := playedGames(t, "match", def.Name, "random", "greedy", "-games", strconv.Itoa(n), "-seed", "5", "-time", "none",
				"-openings", openingsFile(def.Name), "-j", "2")
			if len(games) != n {
				t.Fatalf("%d games in results.tsv, want %d", len(games), n)
			}
			summary, err := os.ReadFile(filepath.Join(dir, summaryFileName))
			if err != nil {
				t.Fatal(err)
			}
			for i := range list {
				o := &list[i]
				a, b := games[2*i+1], games[2*i+2]
				if a.Seats != [2]string{b.Seats[1], b.Seats[0]} {
					t.Errorf("games %d and %d: seats %v and %v, not swapped", a.N, b.N, a.Seats, b.Seats)
				}
				for _, g := range []storedGame{a, b} {
					if g.Result.Winner < -1 {
						t.Fatalf("game %d: no result: %+v", g.N, g.Result)
					}
					if g.Result.Faults != [2]fault{} {
						t.Errorf("game %d: a built-in's fault: %+v", g.N, g.Result.Faults)
					}
					if num, text := gameOpening(t, g); num != o.Number || text != o.Text {
						t.Errorf("game %d: opening.txt says opening %d %q, want %d %q", g.N, num, text, o.Number, o.Text)
					}
					checkStartedFrom(t, def.Name, g, o)
					if !hasLine(string(summary), fmt.Sprintf("game %d: ", g.N), "; "+o.String()) {
						t.Errorf("results.txt's line of game %d does not name %s:\n%s", g.N, o, summary)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(dir, openingsFileName)); err != nil {
				t.Errorf("the run's copy of its openings: %v", err)
			}
		})
	}
}

// hasLine reports whether text has a line starting with prefix and
// holding part.
func hasLine(text, prefix, part string) bool {
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, prefix) && strings.Contains(line, part) {
			return true
		}
	}
	return false
}

// TestOpeningsDarkchessSeed: the opening "seed N" is the deal that "arena
// match darkchess -seed N" gives its first two games.
func TestOpeningsDarkchessSeed(t *testing.T) {
	t.Parallel()
	plain, _ := playedGames(t, "match", "darkchess", "random", "random", "-games", "1", "-seed", "42", "-time", "none")
	var sc darkchessSidecar
	data, err := os.ReadFile(plain[1].Result.Record + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"seed 42", "42", "SEED   42"} {
		p, err := parseDarkchessOpening(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := strings.Fields(p.String())[4]; got != sc.Deal {
			t.Errorf("%q deals %s; arena match -seed 42 dealt %s", line, got, sc.Deal)
		}
	}
}

// TestOpeningsTournament: in a tournament every pairing plays the openings
// in the same order, each once with each colour; with more pairs than
// openings the order starts again; -openings-order random is a shuffle
// fixed by -seed, other than the file's order.
func TestOpeningsTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays three tournaments")
	}
	t.Parallel()
	// Five openings; a seed whose shuffle does not start with the first.
	file := filepath.Join(t.TempDir(), "openings.txt")
	lines := []string{"f5d6c3d3c4f4f6f3", "f5f6e6f4", "f5d6c5", "f5f4e3", "f5d6c4"}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seed := uint64(1)
	for openingOrder(len(lines), true, seed)[0] == 0 {
		seed++
	}
	play := func(order string) map[int]storedGame {
		games, _ := playedGames(t, "tournament", "othello", "random", "greedy", "alphabeta", "-games", "12", "-seed", strconv.FormatUint(seed, 10),
			"-time", "none", "-openings", file, "-openings-order", order, "-j", "2")
		if len(games) != 3*12 {
			t.Fatalf("%s: %d games, want 36", order, len(games))
		}
		return games
	}
	assigned := func(games map[int]storedGame) map[[2]int]int {
		got := map[[2]int]int{}
		for _, g := range games {
			n, _ := gameOpening(t, g)
			got[[2]int{g.Pairing, g.Index}] = n
		}
		return got
	}
	for _, order := range []string{openingsSequential, openingsRandom} {
		games := play(order)
		got := assigned(games)
		perm := openingOrder(len(lines), order == openingsRandom, seed)
		want := map[[2]int]int{}
		for p := range 3 {
			for i := range 12 {
				want[[2]int{p, i}] = perm[(i/2)%len(lines)] + 1
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: openings by (pairing, index) (-want +got):\n%s", order, diff)
		}
		if order == openingsRandom {
			if got[[2]int{0, 0}] == 1 {
				t.Errorf("random order with seed %d starts with the file's first opening", seed)
			}
			again := assigned(play(order))
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("the same -seed shuffled the openings otherwise (-first +second):\n%s", diff)
			}
		}
	}
}

// TestOpeningOrder: the random order is a permutation fixed by the seed,
// not the file's order, and other for another seed.
func TestOpeningOrder(t *testing.T) {
	const n = 40
	if got := openingOrder(n, false, 7); !slices.Equal(got, identity(n)) {
		t.Errorf("sequential order %v", got)
	}
	a, b, c := openingOrder(n, true, 7), openingOrder(n, true, 7), openingOrder(n, true, 8)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 gave %v, then %v", a, b)
	}
	if slices.Equal(a, c) || slices.Equal(a, identity(n)) {
		t.Errorf("seed 7 %v, seed 8 %v", a, c)
	}
	sorted := slices.Sorted(slices.Values(a))
	if !slices.Equal(sorted, identity(n)) {
		t.Errorf("not a permutation: %v", a)
	}
	// Pinned: a resumed run must shuffle as the run did, whatever Go's
	// release.
	if got, want := openingOrder(5, true, 1), []int{1, 3, 4, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("openingOrder(5, true, 1) = %v, want %v", got, want)
	}
	if got := openingOrder(1, true, 9); !slices.Equal(got, []int{0}) {
		t.Errorf("one opening: %v", got)
	}
}

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestOpeningsResume: -resume plays the games left with the openings of
// the run's copy of its file, whatever the file named has become; without
// the copy it refuses.
func TestOpeningsResume(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(file, []byte("BCDE EFGH\nABCD abcd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, dir := playedGames(t, "match", "geister", "random", "random", "-games", "4", "-seed", "3", "-time", "none", "-openings", file)
	// As if killed after two games: results.tsv keeps them only, and the
	// file changes.
	tsv := filepath.Join(dir, resultsFileName)
	data, err := os.ReadFile(tsv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(tsv, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("EFGH EFGH\nEFGH EFGH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runArena(t, "match", "geister", "-resume", dir)
	matchAll(t, out, `Resumed: 2 of 4 games`, `game 3: .*opening 2 \(line 2: ABCD abcd\)`, `game 4: .*opening 2 \(line 2: ABCD abcd\)`)
	again, err := readResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	for n := 3; n <= 4; n++ {
		b, err := record.ReadGeisterBoard(bytes.NewReader(mustRead(t, again[n].Result.Record)))
		if err != nil {
			t.Fatal(err)
		}
		if want := [2]geister.Reds{geister.RedsOf(geister.A, geister.B, geister.C, geister.D), geister.RedsOf(geister.A, geister.B, geister.C, geister.D)}; b.Reds != want {
			t.Errorf("resumed game %d: red sets %v, want the run's opening 2 %v", n, b.Reds, want)
		}
	}

	// Without the copy, -resume refuses.
	if err := os.WriteFile(tsv, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, openingsFileName)); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = run(t.Context(), []string{"match", "geister", "-resume", dir}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), openingsFileName) {
		t.Errorf("resume without %s: %v", openingsFileName, err)
	}
}

// finishedOthelloGame is a whole random Othello game as a move list.
func finishedOthelloGame(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := othello.NewGame(othello.Standard)
	for !g.IsOver() {
		moves := g.Position().AppendLegalMoves(nil)
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	list, err := record.AppendOthelloMoveList(nil, g)
	if err != nil {
		t.Fatal(err)
	}
	return string(list)
}

// TestParseOpeningsFile: CRLF, a byte order mark, comments, blank lines
// and spaces are read as a person writing the file means them.
func TestParseOpeningsFile(t *testing.T) {
	data := "\ufeff# Tiger and others\r\nf5d6c3d3c4  # tiger\r\n\r\n\t F5 F6 E6 F4\t\r\n#f5\nf5d6c5"
	list, err := parseOpenings("othello", "standard", "F", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range list {
		got = append(got, fmt.Sprintf("%d:%d:%s:%s", o.Number, o.Line, o.Text, o.othello.List))
	}
	want := []string{"1:2:f5d6c3d3c4:f5d6c3d3c4", "2:4:F5 F6 E6 F4:f5f6e6f4", "3:6:f5d6c5:f5d6c5"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("openings (-want +got):\n%s", diff)
	}
}

// TestParseOpeningsErrors: a bad openings file is refused with the file,
// the line and what is wrong.
func TestParseOpeningsErrors(t *testing.T) {
	long := strings.Repeat("f5", maxOpeningLine)
	tests := []struct {
		game, rules, data string
		want              string // in the error
	}{
		{"othello", "tus", "f5d6\nf5zz\n", `F:2: not an Othello move list: .*move 2 "zz"`},
		{"othello", "tus", "f5d6\nf5f5\n", `F:2: .*move 2 "f5": not legal for white`},
		{"othello", "tus", "# all comments\n\n   # and blanks\n", `F: no openings`},
		{"othello", "tus", "", `F: no openings`},
		{"othello", "tus", finishedOthelloGame(t), `F:1: the moves end the game`},
		{"othello", "tus", "f5\n" + long + "\n", fmt.Sprintf(`F:2: a line of %d bytes \(at most %d\)`, len(long), maxOpeningLine)},
		{"othello", "tus", "f5\n\xff\xfe\n", `F:2: not UTF-8`},
		{"othello", "tus", "f5 pa\n", `F:1: .*pass is not forced`},
		{"geister", "gat", "BCDE\n", `F:1: want the two players' red ghosts.*got 1 field`},
		{"geister", "gat", "BCDE EFGH ABCD\n", `F:1: .*got 3 fields`},
		{"geister", "gat", "BCDE EFGZ\n", `F:1: the second player's red ghosts "EFGZ"`},
		{"geister", "gat", "BCDB EFGH\n", `F:1: the first player's red ghosts "BCDB": .*named twice`},
		{"darkchess", "ntu2021", "seed x1\n", `F:1: .*want a deal`},
		{"darkchess", "ntu2021", "seed 99999999999999999999999\n", `F:1: seed "99999999999999999999999": a whole number`},
		{"darkchess", "ntu2021", "PmRc/MRpP\n", `F:1: deal "PmRc/MRpP"`},
		{"darkchess", "ntu2021", "PPPP/PPPP/PPPP/PPPP/PPPP/PPPP/PPPP/PPPP\n", `F:1: deal`},
		{"darkchess", "ntu2021", "PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc extra\n", `F:1: .*want a deal`},
		{"pdd", "course", "W_1_Chess_2,0_2,2 nonsense\n", `F:1: action 2 "nonsense"`},
		{"pdd", "course", "B_1_Chess_2,0_2,2\n", `F:1: not a start record of the course rules`},
		{"pdd", "course", "W_1_Pass\n", `F:1: not a start record of the course rules`},
		{"pdd", "course", "W_1_Chess_2,0_2,2\nW_1_Chess_2,0_2,2 W_2_Chess_2,0_2,2\n", `F:2: not a start record`},
	}
	for _, tt := range tests {
		_, err := parseOpenings(tt.game, tt.rules, "F", []byte(tt.data))
		if err == nil {
			t.Errorf("%s %q: no error, want %s", tt.game, tt.data, tt.want)
			continue
		}
		matchAll(t, err.Error(), tt.want)
	}
}

// TestOpeningsFlagErrors: bad -openings flags are refused before the run
// begins: no run.json is written, so the same -out can be used again.
func TestOpeningsFlagErrors(t *testing.T) {
	tmp := t.TempDir()
	good := openingsFile("othello")
	big := filepath.Join(tmp, "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("f5d6c3\n"), maxOpeningsFile/7+1), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(tmp, "bad.txt")
	if err := os.WriteFile(bad, []byte("f5\n\nf5d6 # fine\nh8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(tmp, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-openings", fifo}, `-openings: .*fifo: not a regular file`},
		{[]string{"-openings", link}, `-openings: .*link: not a regular file`},
		{[]string{"-openings", filepath.Join(tmp, "missing.txt")}, `-openings: .*missing.txt: no such file`},
		{[]string{"-openings", tmp}, `-openings: .*not a regular file`},
		{[]string{"-openings", big}, fmt.Sprintf(`-openings: .*big.txt: over %d bytes`, maxOpeningsFile)},
		{[]string{"-openings", bad}, `-openings: .*bad.txt:4: .*move 1 "h8": not legal for black`},
		{[]string{"-openings", good, "-openings-order", "shuffled"}, `-openings-order "shuffled": want sequential or random`},
		{[]string{"-openings-order", "random"}, `-openings-order random: give the openings with -openings FILE`},
		{[]string{"-openings", good, "-start", good}, `-openings and -start both`},
		{[]string{"-openings", openingsFile("geister")}, `-openings: .*geister.txt:2: not an Othello move list`},
	}
	for i, tt := range tests {
		out := filepath.Join(tmp, fmt.Sprint("run", i))
		args := append([]string{"match", "othello", "-time", "none", "-out", out}, tt.args...)
		err := run(t.Context(), args, new(bytes.Buffer), new(bytes.Buffer))
		if err == nil {
			t.Errorf("%q: no error, want %s", tt.args, tt.want)
			continue
		}
		matchAll(t, err.Error(), tt.want)
		if _, err := os.Stat(filepath.Join(out, runFileName)); err == nil {
			t.Errorf("%q: run.json written for a run refused", tt.args)
		}
	}
}

// TestOthelloOpeningOrientation: an opening is a move list from the
// standard start; under -rules tus it is mirrored onto the TUS start.
func TestOthelloOpeningOrientation(t *testing.T) {
	std, err := parseOthelloOpening("standard", "f5D6 c3")
	if err != nil {
		t.Fatal(err)
	}
	tus, err := parseOthelloOpening("tus", "f5D6 c3")
	if err != nil {
		t.Fatal(err)
	}
	g, err := record.ParseOthelloMoveList("f5d6c3")
	if err != nil {
		t.Fatal(err)
	}
	if std.Start != g.Position() || std.List != "f5d6c3" {
		t.Errorf("standard: %v %q", std.Start, std.List)
	}
	if tus.Start != othello.FlipX.Position(g.Position()) || tus.List != "f5d6c3" {
		t.Errorf("tus: %v, want the mirror of %v", tus.Start, g.Position())
	}
	if tus.Start.Turn() != othello.White {
		t.Errorf("after 3 moves %v is to move", tus.Start.Turn())
	}
}

// TestShippedOpenings: the example files parse under every preset.
func TestShippedOpenings(t *testing.T) {
	for _, def := range gameDefs() {
		data, err := os.ReadFile(openingsFile(def.Name))
		if err != nil {
			t.Fatal(err)
		}
		for _, rules := range def.Presets {
			if _, err := parseOpenings(def.Name, rules, openingsFile(def.Name), data); err != nil {
				t.Errorf("%s -rules %s: %v", def.Name, rules, err)
			}
		}
	}
}

// fuzzSeeds adds every line of the example openings file of game.
func fuzzSeeds(f *testing.F, game string) {
	data, err := os.ReadFile(openingsFile(game))
	if err != nil {
		f.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		f.Add(strings.TrimSpace(line))
	}
}

func FuzzOthelloOpening(f *testing.F) {
	fuzzSeeds(f, "othello")
	f.Add("f5 pa")
	f.Add("")
	f.Add("F5D6C3D3C4F4F6F3E6E7")
	f.Fuzz(func(t *testing.T, text string) {
		for _, rules := range []string{"tus", "standard"} {
			o, err := parseOthelloOpening(rules, text)
			if err != nil {
				continue
			}
			if o.Start.IsOver() {
				t.Fatalf("%q: an opening that ends the game", text)
			}
			// The list replays to the same position.
			g, err := record.ParseOthelloMoveList(o.List)
			if err != nil {
				t.Fatalf("%q: its list %q: %v", text, o.List, err)
			}
			end := g.Position()
			if end.MustPass() {
				end, _ = end.Play(othello.Pass)
			}
			if o.Sym.Position(end) != o.Start || o.Start.MustPass() {
				t.Fatalf("%q under %s: the list %q leads elsewhere", text, rules, o.List)
			}
		}
	})
}

func FuzzGeisterOpening(f *testing.F) {
	fuzzSeeds(f, "geister")
	f.Add("SET:ABC EFGH")
	f.Fuzz(func(t *testing.T, text string) {
		reds, err := parseGeisterOpening(text)
		if err != nil {
			return
		}
		if !reds[0].Valid() || !reds[1].Valid() {
			t.Fatalf("%q: red sets %v", text, reds)
		}
		if _, err := geister.Start(reds[0], reds[1]); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
	})
}

func FuzzDarkchessOpening(f *testing.F) {
	fuzzSeeds(f, "darkchess")
	f.Add("18446744073709551615")
	f.Add("xxxx/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := parseDarkchessOpening(text)
		if err != nil {
			return
		}
		if !p.Dealt() {
			t.Fatalf("%q: not dealt: %v", text, p)
		}
		g := darkchess.NewGameFrom(darkchess.NTU2021, p, nil)
		if _, over := g.Result(); over {
			t.Fatalf("%q: the game is over at the start", text)
		}
	})
}

func FuzzPDDOpening(f *testing.F) {
	fuzzSeeds(f, "pdd")
	f.Add("W_1_Pass")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		for _, rules := range []string{"course", "official"} {
			o, err := parsePDDOpening(rules, text)
			if err != nil {
				continue
			}
			if len(o.Log.Steps) == 0 || o.Start.IsOver() {
				t.Fatalf("%q under %s: %d actions, over %v", text, rules, len(o.Log.Steps), o.Start.IsOver())
			}
		}
	})
}

// FuzzParseOpenings: any file, of any game, is read or refused with its
// name and a line, without panicking.
func FuzzParseOpenings(f *testing.F) {
	for i, def := range gameDefs() {
		data, err := os.ReadFile(openingsFile(def.Name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
	}
	f.Add(uint8(0), []byte("f5\r\n#x\n\n f5d6 #y"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		defs := gameDefs()
		def := defs[int(which)%len(defs)]
		list, err := parseOpenings(def.Name, def.Presets[0], "F", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "F:") && !strings.HasPrefix(err.Error(), "F: ") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		for i, o := range list {
			if o.Number != i+1 || o.Line < 1 || o.Text == "" || strings.ContainsAny(o.Text, "#\n") {
				t.Fatalf("opening %d: %+v", i, o)
			}
		}
	})
}

// TestOthelloOpeningEndsInPass: an opening after which the side to move
// has to pass includes the pass, so that the game starts with a side that
// can move.
func TestOthelloOpeningEndsInPass(t *testing.T) {
	for seed := range uint64(5000) {
		rng := rand.New(rand.NewPCG(seed, 3))
		g := othello.NewGame(othello.Standard)
		for !g.IsOver() {
			p := g.Position()
			if p.MustPass() {
				list, err := record.AppendOthelloMoveList(nil, g)
				if err != nil {
					t.Fatal(err)
				}
				o, err := parseOthelloOpening("standard", string(list))
				if err != nil {
					t.Fatalf("%s: %v", list, err)
				}
				if o.Start.MustPass() || o.Start.Turn() == p.Turn() || o.Moves[len(o.Moves)-1] != othello.Pass {
					t.Errorf("%s: starts with %v to move, last move %v", list, o.Start.Turn(), o.Moves[len(o.Moves)-1])
				}
				return
			}
			moves := p.AppendLegalMoves(nil)
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no random game of 5000 had a forced pass")
}
