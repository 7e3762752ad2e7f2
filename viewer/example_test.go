package viewer_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

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

// A person plays a seat: the host opens it, asks it for a move, and gets
// the answer the seat's page gave. Here the page is played over HTTP: it
// follows the seat's event stream until the question comes, and posts its
// answer.
func ExampleViewer_Ask() {
	v, err := viewer.New(viewer.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(v)
	defer srv.Close()

	p := othello.TUS.Start
	v.Begin(viewer.GameInfo{ID: "g1", Game: "othello", Title: "Game 1: you vs bot", Players: [2]string{"you", "bot"}, Seats: [2]string{"black", "white"}},
		viewer.OthelloFrame(p, 0, othello.NoMove, "", [2]string{}))
	path, err := v.OpenSeat("g1", 0) // the link for the person: "/play/g1?seat=..."
	if err != nil {
		fmt.Println(err)
		return
	}

	// The host asks for black's move, in its game's goroutine.
	q := viewer.Question{Frame: viewer.OthelloFrame(p, 0, othello.NoMove, "", [2]string{}), Prompt: "Your turn (black)"}
	for _, m := range p.AppendLegalMoves(nil) {
		q.Choices = append(q.Choices, viewer.Choice{Answer: viewer.Answer{Kind: viewer.AnswerMove, Move: m.String()}, Squares: []string{m.String()}})
	}
	answered := make(chan viewer.Answer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		a, err := v.Ask(ctx, "g1", 0, q)
		if err != nil {
			fmt.Println(err)
		}
		answered <- a
	}()

	// The page: the seat's events, until one asks a question.
	resp, err := http.Get(srv.URL + strings.Replace(path, "?", "/events?", 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	var ev struct {
		Session  string           `json:"session"`
		N        uint64           `json:"n"`
		Question *viewer.Question `json:"question"`
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for ev.Question == nil && sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			json.Unmarshal([]byte(data), &ev)
		}
	}
	if ev.Question == nil {
		fmt.Println("no question")
		return
	}
	fmt.Println(ev.Question.Prompt, "of", len(ev.Question.Choices), "moves")
	move := ev.Question.Choices[0].Answer.Move
	act, err := http.PostForm(srv.URL+strings.Replace(path, "?", "/act?", 1),
		url.Values{"session": {ev.Session}, "n": {fmt.Sprint(ev.N)}, "kind": {"move"}, "move": {move}})
	if err != nil {
		fmt.Println(err)
		return
	}
	act.Body.Close()
	fmt.Println(act.StatusCode)
	fmt.Println(<-answered == viewer.Answer{Kind: viewer.AnswerMove, Move: move})

	v.Finish("g1", q.Frame, "no result: an example", "")
	v.CloseSeats("g1") // the seat's stream ends
	resp.Body.Close()
	// Output:
	// Your turn (black) of 4 moves
	// 204
	// true
}
