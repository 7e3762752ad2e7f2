package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/viewer"
)

// savedStart saves ply of the arena record rel (under the viewer's test
// data) as the replay page does, with replay, into a file of its own, and
// returns its path.
func savedStart(t *testing.T, rel string, replay func(string, []byte) (viewer.Replay, error), ply int) string {
	t.Helper()
	data := mustRead(t, filepath.Join("..", "..", "viewer", "testdata", "arena-records", filepath.FromSlash(rel)))
	rp, err := replay(filepath.Base(rel), data)
	if err != nil {
		t.Fatal(err)
	}
	name, start, err := rp.StartAt(ply)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, start, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplayStartOthello: "arena match -start" plays on from the start file
// the replay page saves of an Othello transcript.
func TestReplayStartOthello(t *testing.T) {
	t.Parallel()
	start := savedStart(t, "othello-20261127-132141/001-alphabeta-vs-random/gamelog_arena.txt", viewer.ReplayOthello, 50)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"match", "othello", "-out", out, "-games", "1", "-seed", "3", "-start", start, "random", "random"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "game 1: ") {
		t.Errorf("output:\n%s", stdout.String())
	}
	recs, _ := filepath.Glob(filepath.Join(out, "*", "gamelog_arena.txt"))
	if len(recs) != 1 {
		t.Fatalf("records %q\n%s", recs, stdout.String())
	}
	// The game's transcript holds the start file's plies, then those played
	// from its position: it replays from the TUS start, as the start file
	// does.
	saved, err := viewer.ReplayOthello("start", mustRead(t, start))
	if err != nil || len(saved.Moves) != 50 {
		t.Fatalf("the start file: %d plies, %v", len(saved.Moves), err)
	}
	back, err := viewer.ReplayOthello("gamelog_arena.txt", mustRead(t, recs[0]))
	if err != nil || len(back.Moves) <= 50 || !slices.Equal(back.Moves[:50], saved.Moves) {
		t.Errorf("the game's transcript does not replay through the start file's plies: %d plies, %v\n%s", len(back.Moves), err, mustRead(t, recs[0]))
	}
}

// TestStartOthelloMoveList: "arena match -start" plays on from a plain move
// list (from the standard start), under -rules tus mirrored onto the TUS
// start as an opening is; the game's transcript replays from the TUS start
// through the mirrored moves, and its moves.txt from the standard start
// through the file's.
func TestStartOthelloMoveList(t *testing.T) {
	t.Parallel()
	start := filepath.Join(t.TempDir(), "start.txt")
	const list = "f5d6c3d3c4f4f6f3e6e7"
	if err := os.WriteFile(start, []byte(list+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"match", "othello", "-rules", "tus", "-out", out, "-games", "1", "-seed", "3", "-start", start, "random", "random"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	recs, _ := filepath.Glob(filepath.Join(out, "*", "gamelog_arena.txt"))
	if len(recs) != 1 {
		t.Fatalf("records %q\n%s", recs, stdout.String())
	}
	want, err := record.ParseOthelloMoveList(list)
	if err != nil {
		t.Fatal(err)
	}
	back, err := viewer.ReplayOthello("gamelog_arena.txt", mustRead(t, recs[0]))
	if err != nil || len(back.Moves) <= want.Ply() {
		t.Fatalf("the game's transcript: %d plies, %v\n%s", len(back.Moves), err, mustRead(t, recs[0]))
	}
	for i, m := range want.Moves() {
		if got := back.Moves[i]; got != othello.FlipX.Move(m).String() {
			t.Errorf("ply %d is %s, the mirror of the start file's %s", i+1, got, m)
		}
	}
	moves := strings.TrimSpace(string(mustRead(t, filepath.Join(filepath.Dir(recs[0]), "moves.txt"))))
	if !strings.HasPrefix(strings.ToLower(moves), list) || len(moves) <= len(list) {
		t.Errorf("moves.txt %q does not go on from the start file's %q", moves, list)
	}
}

// TestReplayStartGeister: a Geister game goes on from the board.txt the
// replay page saves at ply 6.
func TestReplayStartGeister(t *testing.T) {
	t.Parallel()
	random, greedy := gsPlayer("random", ""), gsPlayer("greedy", "")
	r := gsRunner(t, matchConfig{Rules: "ntpu", MaxPlies: 12}, random, greedy)
	res, _ := gsPlay(t, t.Context(), r, random, greedy, 5, nil)
	if res.Plies < 8 {
		t.Skipf("the game ended after %d plies, too early to cut at 6", res.Plies)
	}
	rp, err := viewer.ReplayGeister("board.txt", mustRead(t, res.Record))
	if err != nil {
		t.Fatal(err)
	}
	name, data, err := rp.StartAt(6)
	if err != nil {
		t.Fatal(err)
	}
	start := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(start, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r = gsRunner(t, matchConfig{Rules: "ntpu", MaxPlies: 12, Start: start}, random, greedy)
	res2, _ := gsPlay(t, t.Context(), r, random, greedy, 6, nil)
	back, err := viewer.ReplayGeister("board.txt", mustRead(t, res2.Record))
	if err != nil || res2.Plies <= 6 || len(back.Moves) != res2.Plies {
		t.Fatalf("from the start file: %+v, %v", res2, err)
	}
	for i := range 6 {
		if back.Moves[i] != rp.Moves[i] {
			t.Errorf("ply %d is %s, the start file's %s", i+1, back.Moves[i], rp.Moves[i])
		}
	}
}

// TestReplayStartDarkChess: a dark chess game goes on from the board.txt
// the replay page saves at ply 20.
func TestReplayStartDarkChess(t *testing.T) {
	t.Parallel()
	start := savedStart(t, "darkchess-20261127-132142/001-greedy-vs-random/board.txt", viewer.ReplayDarkChess, 20)
	two := []*playerSpec{dcPlayer(t, "random", ""), dcPlayer(t, "random", "")}
	r := dcRunner(t, matchConfig{Start: start, MaxPlies: 10}, two...)
	res, sc := dcPlay(t, r, two[0], two[1], 0, 9, nil)
	if res.Plies <= 20 || !strings.Contains(sc.From, "20 plies") {
		t.Fatalf("from the start file: %+v, %+v", res, sc)
	}
	back, err := viewer.ReplayDarkChess("board.txt", mustRead(t, res.Record))
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := viewer.ReplayDarkChess("board.txt", mustRead(t, start))
	for i := range 20 {
		if back.Moves[i] != saved.Moves[i] {
			t.Errorf("ply %d is %s, the start file's %s", i+1, back.Moves[i], saved.Moves[i])
		}
	}
}

// TestReplayStartPDD: a PDD game goes on from the stepLog.txt the replay
// page saves at ply 40, read by itself.
func TestReplayStartPDD(t *testing.T) {
	t.Parallel()
	start := savedStart(t, "pdd-20261127-132129/001-greedy-vs-random/stepLog.txt", viewer.ReplayPDD, 40)
	white, black := pddPlayer("greedy", ""), pddPlayer("random", "")
	r := pddTestRunner(t, matchConfig{Start: start}, white, black)
	res := r.Play(t.Context(), pddJob(t, 1, white, black, &testWatcher{}))
	if res.Plies <= 40 || res.Winner < -1 {
		t.Fatalf("from the start file: %+v", res)
	}
	if got := mustRead(t, filepath.Join(filepath.Dir(res.Record), "stepLog.txt")); !bytes.HasPrefix(got, mustRead(t, start)) {
		t.Errorf("the stepLog does not open with the start file's lines:\n%s", got)
	}
}
