package viewer_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/viewer"
)

// Serve the replay of a record file through httptest, and fetch its page
// and the picture of its first ply.
func Example_replay() {
	dir, _ := os.MkdirTemp("", "records")
	defer os.RemoveAll(dir)
	record := filepath.Join(dir, "game.txt")
	os.WriteFile(record, []byte("f5d6c3d3c4f4f6f3e6e7\n"), 0o644) // a plain Othello move list

	v, err := viewer.New(viewer.Options{Records: []string{dir}})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(v)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/replay?" + url.Values{"file": {record}}.Encode())
	if err != nil {
		fmt.Println(err)
		return
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.Contains(string(page), "Othello replay: game.txt"))

	resp, err = http.Get(srv.URL + "/replay/frame?" + url.Values{"file": {record}, "game": {"othello"}, "ply": {"1"}}.Encode())
	if err != nil {
		fmt.Println(err)
		return
	}
	frame, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), strings.Contains(string(frame), `"move":"f5"`))
	// Output:
	// 200 true
	// 200 application/json true
}

// Publish a live game: a host tells the viewer of each ply, and the game's
// live page shows it.
func ExampleViewer_Begin() {
	v, err := viewer.New(viewer.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(v)
	defer srv.Close()

	p := othello.TUS.Start
	v.Begin(viewer.GameInfo{ID: "g1", Game: "othello", Title: "Game 1: alice vs bob", Players: [2]string{"alice", "bob"}, Seats: [2]string{"black", "white"}},
		viewer.OthelloFrame(p, 0, othello.NoMove, "", [2]string{}))
	m, _ := othello.ParseMove("e3")
	p, _ = p.Play(m)
	v.Update("g1", viewer.OthelloFrame(p, 1, m, "", [2]string{}))
	v.Finish("g1", viewer.OthelloFrame(p, 1, m, "stopped", [2]string{}), "no result: a test", "")

	resp, err := http.Get(srv.URL + "/live/g1")
	if err != nil {
		fmt.Println(err)
		return
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.Contains(string(page), "Game 1: alice vs bob"))
	// Output:
	// 200 true
}
