package viewer

import (
	"net/url"
	"slices"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
)

// TestViewerTakeBack: an Update to an earlier ply (a person took moves
// back) cuts the game's move list there; a page following the game is
// told to drop the moves taken back (its state starts at the cut), and
// the moves played after it follow.
func TestViewerTakeBack(t *testing.T) {
	v, srv := testViewer(t, DefaultLimits())
	fs := othelloFrames(5)
	info := GameInfo{ID: "tb", Game: "othello", Title: "Game 1", Players: [2]string{"a", "b"}, Seats: [2]string{"black", "white"}}
	v.Begin(info, fs[0])
	er, done := browsertest.OpenEvents(t, srv.URL+"/events/"+url.PathEscape(info.ID))
	defer done()
	browsertest.DecodeState[gameState](er)
	for _, f := range fs[1:4] {
		v.Update(info.ID, f)
		browsertest.DecodeState[gameState](er)
	}
	v.Update(info.ID, fs[1]) // back to ply 1
	st := browsertest.DecodeState[gameState](er)
	if st.Frame.Ply != 1 || st.From != 1 || len(st.Moves) != 0 {
		t.Fatalf("after the take-back: ply %d, from %d, moves %v; want ply 1 from 1, no moves", st.Frame.Ply, st.From, st.Moves)
	}
	other := fs[4]
	other.Ply, other.Move = 2, "zz"
	v.Update(info.ID, other)
	st = browsertest.DecodeState[gameState](er)
	if st.Frame.Ply != 2 || st.From != 1 || !slices.Equal(st.Moves, []string{"zz"}) {
		t.Fatalf("the move after the take-back: ply %d, from %d, moves %v; want from 1 [zz]", st.Frame.Ply, st.From, st.Moves)
	}
	// A page that comes now gets the game as finally played.
	er2, done2 := browsertest.OpenEvents(t, srv.URL+"/events/"+url.PathEscape(info.ID))
	defer done2()
	st = browsertest.DecodeState[gameState](er2)
	if want := []string{fs[1].Move, "zz"}; st.From != 0 || !slices.Equal(st.Moves, want) {
		t.Errorf("a new page: from %d moves %v, want %v", st.From, st.Moves, want)
	}
}
