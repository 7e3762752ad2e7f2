package record_test

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/record"
	"github.com/google/go-cmp/cmp"
)

// darkChessTestdataDir returns the shared folder of real dark chess files,
// or skips the test if it is absent (a checkout of this repository alone).
func darkChessTestdataDir(t testing.TB) string {
	t.Helper()
	sharedtest.Dir(t, "darkchess", "records", "index.tsv")
	return sharedtest.Dir(t, "darkchess")
}

// readDarkChessBoardFile reads a board.txt file, failing the test on error.
func readDarkChessBoardFile(t testing.TB, path string) ([]byte, *record.DarkChessBoard) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.ReadDarkChessBoard(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data, b
}

// appendDarkChessBoard writes b in profile p, failing the test on error.
func appendDarkChessBoard(t testing.TB, b *record.DarkChessBoard, p record.DarkChessProfile) []byte {
	t.Helper()
	out, err := record.AppendDarkChessBoard(nil, b, p)
	if err != nil {
		t.Fatalf("writing %s: %v", p, err)
	}
	return out
}

// darkChessColour reads index.tsv's colour words.
func darkChessColour(s string) darkchess.Color {
	switch s {
	case "red":
		return darkchess.Red
	case "black":
		return darkchess.Black
	}
	return darkchess.NoColor
}

// TestDarkChessRecords2021 reads every 2021 record, checks it against
// index.tsv, replays it under NTU2021 to the same ending at the same ply (the
// result line checked by Game), and rewrites the finished ones byte for byte
// in the Server2021 profile (the snapshots lose the trailing space of a
// one-ply move line, and only that).
func TestDarkChessRecords2021(t *testing.T) {
	dir := darkChessTestdataDir(t)
	f, err := os.Open(filepath.Join(dir, "records", "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	endings := map[string]int{}
	exact := 0
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 8 {
			t.Fatalf("index.tsv: %q", sc.Text())
		}
		file, firstPlayer, secondPlayer, firstColour, plyCount, ending, winner, resultLine := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
		data, b := readDarkChessBoardFile(t, filepath.Join(dir, "records", file))
		endings[ending]++
		if b.First != firstPlayer || b.Second != secondPlayer || b.FirstColor.String() != firstColour || strconv.Itoa(len(b.Plies)) != plyCount {
			t.Errorf("%s: %q vs %q, first %s, %d plies; index says %s", file, b.First, b.Second, b.FirstColor, len(b.Plies), strings.Join(c[1:5], " "))
		}
		if b.Start != darkchess.Opening || b.Time != 900 || b.TimeSetting().Seconds() != 900 || len(b.Times) != len(b.Plies)+1 {
			t.Errorf("%s: start %s, time %d, %d timestamps", file, b.Start, b.Time, len(b.Times))
		}
		if ending == "unfinished" {
			if b.Result != nil || !strings.HasPrefix(b.Banner, "This is TEMPORARILY file.") {
				t.Errorf("%s: snapshot with banner %q, result %+v", file, b.Banner, b.Result)
			}
		} else if b.Banner != "INITIAL" || b.Result == nil || b.Result.Text != resultLine {
			t.Errorf("%s: banner %q, result %+v; index says %q", file, b.Banner, b.Result, resultLine)
		}
		g, err := b.Game(darkchess.NTU2021, nil)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		r, over := g.Result()
		var want darkchess.Result
		switch {
		case strings.HasPrefix(ending, "no-pieces"):
			want = darkchess.Result{Reason: darkchess.NoPieces, Winner: darkChessColour(winner)}
		case ending == "blocked":
			want = darkchess.Result{Reason: darkchess.NoLegalPly, Winner: darkChessColour(winner)}
		case strings.HasPrefix(ending, "repetition-k"):
			k, _ := strconv.Atoi(strings.TrimPrefix(ending, "repetition-k"))
			want = darkchess.Result{Reason: darkchess.PositionRepetitionDraw, Draw: true, Repetitions: 3, Cycle: k}
		case ending == "no-capture-no-flip-60":
			want = darkchess.Result{Reason: darkchess.NoEatFlipDraw, Draw: true}
		case ending == "timeout":
			want = darkchess.Result{Reason: darkchess.TimeOut, Winner: darkChessColour(winner)}
		case ending == "unfinished":
		default:
			t.Fatalf("%s: unknown ending %q", file, ending)
		}
		if over != (want.Reason != darkchess.Unfinished) || r != want || g.Ply() != len(b.Plies) {
			t.Errorf("%s: %v after %d plies (over %v), index says %s %s", file, r, g.Ply(), over, ending, winner)
		}
		// The byte-exact rewrite.
		out := appendDarkChessBoard(t, b, record.DarkChessServer2021)
		wantOut := data
		if ending == "unfinished" {
			wantOut = []byte(strings.ReplaceAll(string(data), " \n", "\n"))
		}
		if !bytes.Equal(out, wantOut) {
			t.Errorf("%s: Server2021 rewrite differs:\n%s", file, cmp.Diff(string(wantOut), string(out)))
		} else if ending != "unfinished" {
			exact++
		}
		// A board made from the game says the same, but for what the game
		// does not hold.
		nb := record.NewDarkChessBoard(g, b.First, b.Second)
		nb.Banner, nb.Date, nb.Time, nb.Times = b.Banner, b.Date, b.Time, b.Times
		if nb.Result != nil && b.Result != nil {
			nb.Result.Text = b.Result.Text
		}
		if diff := cmp.Diff(b, nb, darkChessBoardCmp); diff != "" {
			t.Errorf("%s: NewDarkChessBoard (-read +made):\n%s", file, diff)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if exact != 2151 {
		t.Errorf("%d finished records rewritten byte for byte, want 2151", exact)
	}
	want := map[string]int{"no-pieces": 1678, "no-pieces(flips-left)": 22, "blocked": 18, "repetition-k4": 239, "repetition-k8": 2,
		"repetition-k12": 2, "no-capture-no-flip-60": 179, "timeout": 11, "unfinished": 15}
	if diff := cmp.Diff(want, endings); diff != "" {
		t.Errorf("endings (-README +index):\n%s", diff)
	}
}

// darkChessBoardCmp compares boards, positions by value.
var darkChessBoardCmp = cmp.Comparer(func(a, b darkchess.Position) bool { return a == b })

var darkChessFileName2017 = regexp.MustCompile(`^(\w+)_VS_(\w+)_\(.*\)-(\w+)_(Win|Lose|Draws)\.txt$`)

// TestDarkChessRecords2017 reads the 2017 server records, replays each under
// Classic to the ending its file name gives (MoveError and RoundTimeout
// games still in play, their result line naming the winner), and rewrites
// each byte for byte in the Server2017 profile. The client's copies of the
// same games, the read-mode board.txt, hold the same plies and timestamps
// and rewrite byte for byte in the ReadMode profile.
func TestDarkChessRecords2017(t *testing.T) {
	dir := filepath.Join(darkChessTestdataDir(t), "legacy", "2017-linux-client-3.1")
	files, err := filepath.Glob(filepath.Join(dir, "server-records", "*.txt"))
	if err != nil || len(files) != 27 {
		t.Fatalf("%d 2017 server records, %v", len(files), err)
	}
	reasons := map[string]int{}
	games := map[string]string{} // plies and timestamps -> file
	for _, path := range files {
		name := filepath.Base(path)
		m := darkChessFileName2017.FindStringSubmatch(name)
		if m == nil {
			t.Fatalf("file name %q", name)
		}
		first, second, reason, outcome := m[1], m[2], m[3], m[4]
		reasons[reason]++
		data, b := readDarkChessBoardFile(t, path)
		if b.First != first || b.Second != second || b.Banner != "" || b.Result == nil || b.Result.Reason != "" || len(b.Times) != len(b.Plies) {
			t.Errorf("%s: %q vs %q, banner %q, result %+v, %d timestamps for %d plies", name, b.First, b.Second, b.Banner, b.Result, len(b.Times), len(b.Plies))
		}
		wantWinner := map[string]int{"Win": 1, "Lose": 2, "Draws": 0}[outcome]
		if b.Result != nil && b.Result.Winner != wantWinner {
			t.Errorf("%s: result %+v", name, b.Result)
		}
		g, err := b.Game(darkchess.Classic, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		r, over := g.Result()
		winner := g.FirstColor()
		if outcome == "Lose" {
			winner = winner.Opponent()
		}
		switch reason {
		case "Normal":
			if r != (darkchess.Result{Reason: darkchess.NoPieces, Winner: winner}) {
				t.Errorf("%s: %v", name, r)
			}
		case "NoEatFlip":
			if r != (darkchess.Result{Reason: darkchess.NoEatFlipDraw, Draw: true}) {
				t.Errorf("%s: %v", name, r)
			}
		case "LongCatch":
			if r != (darkchess.Result{Reason: darkchess.PositionRepetitionDraw, Draw: true, Repetitions: 3, Cycle: 4}) {
				t.Errorf("%s: %v", name, r)
			}
			// Under NTU2021 the draw comes one ply earlier: the last ply is refused.
			_, err := b.Game(darkchess.NTU2021, nil)
			var me *darkchess.MoveError
			if !errors.Is(err, darkchess.ErrGameOver) || !errors.As(err, &me) || me.Ply != b.Plies[len(b.Plies)-1] || !strings.Contains(err.Error(), "ply "+strconv.Itoa(len(b.Plies))+" ") {
				t.Errorf("%s under NTU2021: %v", name, err)
			}
		case "MoveError", "RoundTimeout":
			if over || outcome == "Draws" || g.Turn() != winner.Opponent() {
				t.Errorf("%s: over %v (%v), %s to move", name, over, r, g.Turn())
			}
		default:
			t.Errorf("%s: unknown reason", name)
		}
		if out := appendDarkChessBoard(t, b, record.DarkChessServer2017); !bytes.Equal(out, data) {
			t.Errorf("%s: Server2017 rewrite differs:\n%s", name, cmp.Diff(string(data), string(out)))
		}
		games[darkChessFingerprint(b)] = name
	}
	if diff := cmp.Diff(map[string]int{"Normal": 8, "MoveError": 5, "RoundTimeout": 1, "NoEatFlip": 9, "LongCatch": 4}, reasons); diff != "" {
		t.Errorf("reasons (-README +files):\n%s", diff)
	}

	copies, _ := filepath.Glob(filepath.Join(dir, "client-board-copies", "*.txt"))
	search, _ := filepath.Glob(filepath.Join(dir, "*_Search_board.txt"))
	if len(copies) != 27 || len(search) != 2 {
		t.Fatalf("%d client copies, %d Search boards", len(copies), len(search))
	}
	matched := map[string]bool{}
	for _, path := range append(copies, search...) {
		name := filepath.Base(path)
		data, b := readDarkChessBoardFile(t, path)
		if !strings.Contains(b.Date, "February") || b.Result != nil || b.Banner != "" {
			t.Errorf("%s: date %q, result %+v, banner %q", name, b.Date, b.Result, b.Banner)
		}
		if out := appendDarkChessBoard(t, b, record.DarkChessReadMode); !bytes.Equal(out, data) {
			t.Errorf("%s: ReadMode rewrite differs:\n%s", name, cmp.Diff(string(data), string(out)))
		}
		if _, err := b.Game(darkchess.Classic, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if strings.HasPrefix(name, "board_") {
			server, ok := games[darkChessFingerprint(b)]
			if !ok || matched[server] {
				t.Errorf("%s: no server record of the same game (%q)", name, server)
			}
			matched[server] = true
		}
	}
}

// darkChessFingerprint identifies a game by its players, plies and timestamps.
func darkChessFingerprint(b *record.DarkChessBoard) string {
	var s strings.Builder
	s.WriteString(b.First + " " + b.Second)
	for _, p := range b.Plies {
		s.WriteString(" " + p.String())
	}
	for _, t := range b.Times {
		s.WriteString(" " + strconv.FormatInt(t, 10))
	}
	return s.String()
}

// TestDarkChessWindows2019 reads the 2019 Windows client's board.txt (CRLF,
// time in milliseconds): they replay under Classic, one to red's win (the
// client wrote the board after the last ply), the other with the game going
// on, and rewrite in the ReadMode profile as the same file with LF line
// ends.
func TestDarkChessWindows2019(t *testing.T) {
	dir := filepath.Join(darkChessTestdataDir(t), "legacy", "2019-windows-competition-client")
	for name, want := range map[string]darkchess.Result{
		"CreateRoom_Search_board.txt": {Reason: darkchess.NoPieces, Winner: darkchess.Red},
		"EnterRoom_Search_board.txt":  {},
	} {
		data, b := readDarkChessBoardFile(t, filepath.Join(dir, name))
		if b.Time != 900000 || b.TimeSetting().Seconds() != 900 || b.First != "a41" || len(b.Times) != len(b.Plies) {
			t.Errorf("%s: time %d (%v), first %q, %d timestamps for %d plies", name, b.Time, b.TimeSetting(), b.First, len(b.Times), len(b.Plies))
		}
		g, err := b.Game(darkchess.Classic, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r, _ := g.Result(); r != want {
			t.Errorf("%s: %v, want %v", name, r, want)
		}
		if out, want := appendDarkChessBoard(t, b, record.DarkChessReadMode), bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")); !bytes.Equal(out, want) {
			t.Errorf("%s: ReadMode rewrite differs:\n%s", name, cmp.Diff(string(want), string(out)))
		}
		v, err := b.View()
		if err != nil || len(v.History) != len(b.Plies) || v.Position() != g.Position().View(darkchess.NoColor).Position() {
			t.Errorf("%s: view %v, %v", name, v, err)
		}
	}
}

// TestDarkChessMGTPRecords reads the records next to the MGTP transcripts,
// and the one original file that goes on after the record with the engine's
// output: the reader stops at the record's end and reads the same board.
func TestDarkChessMGTPRecords(t *testing.T) {
	dir := filepath.Join(darkChessTestdataDir(t), "mgtp")
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 13 {
		t.Fatalf("%d MGTP records, want 13", len(files))
	}
	for _, path := range files {
		name := filepath.Base(path)
		_, b := readDarkChessBoardFile(t, path)
		if _, err := b.Game(darkchess.NTU2021, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if full, ok := strings.CutSuffix(path, ".full.txt"); ok {
			_, short := readDarkChessBoardFile(t, full+".txt")
			if diff := cmp.Diff(short, b, darkChessBoardCmp); diff != "" {
				t.Errorf("%s (-record +full file):\n%s", name, diff)
			}
		}
	}
}

// TestDarkChessSnapshotContinues starts games mid-way from the unfinished
// 2021 snapshots: the face-down pieces the record never flips are dealt, and
// the game goes on to its end with bare moves, flips included.
func TestDarkChessSnapshotContinues(t *testing.T) {
	dir := darkChessTestdataDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "records", "*", "*temp.txt"))
	if len(files) != 15 {
		t.Fatalf("%d snapshots, want 15", len(files))
	}
	for i, path := range files {
		_, b := readDarkChessBoardFile(t, path)
		rng := rand.New(rand.NewPCG(1, uint64(i)))
		g, err := b.Game(darkchess.NTU2021, rng)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !g.Position().Dealt() || g.Ply() != len(b.Plies) {
			t.Fatalf("%s: not dealt, or %d plies", path, g.Ply())
		}
		var buf [darkchess.MaxMoves]darkchess.Move
		for !g.IsOver() {
			moves := g.Position().AppendLegalMoves(buf[:0])
			if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		// The finished game writes and reads back, and replays to its end.
		nb := record.NewDarkChessBoard(g, b.First, b.Second)
		out := appendDarkChessBoard(t, nb, record.DarkChessServer2021)
		back, err := record.ReadDarkChessBoard(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, out)
		}
		g2, err := back.Game(darkchess.NTU2021, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r1, _ := g.Result()
		r2, _ := g2.Result()
		if r1 != r2 || g2.Ply() != g.Ply() {
			t.Errorf("%s: %v after %d plies, read back %v after %d", path, r1, g.Ply(), r2, g2.Ply())
		}
	}
}
