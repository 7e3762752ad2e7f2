package viewer

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// seatServer serves a new viewer with game id begun, its seat 0 open; it
// returns the viewer, the server and the seat's path.
func seatServer(t *testing.T, id string) (*Viewer, *httptest.Server, string) {
	t.Helper()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	v.Begin(GameInfo{ID: id, Game: "othello", Title: "a test", Players: [2]string{"ann", "bob"}, Seats: [2]string{"black", "white"}},
		Frame{Board: "<svg/>", ToMove: 0, Views: map[string]string{"black": "<svg>black</svg>", "white": "<svg>white</svg>"}})
	path, err := v.OpenSeat(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v, srv, path
}

// seatStream is a seat's event stream, as a browser with cookie reads it.
type seatStream struct {
	t    *testing.T
	resp *http.Response
	sc   *bufio.Scanner
}

// followSeat opens the event stream of the seat at path (its page's
// path) with cookie ("" for none), and returns it and the status.
func followSeat(t *testing.T, srv *httptest.Server, path, cookie string) (*seatStream, int) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+strings.Replace(path, "?", "/events?", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: seatCookie, Value: cookie})
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, resp.StatusCode
	}
	t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	return &seatStream{t: t, resp: resp, sc: sc}, resp.StatusCode
}

// next reads the next seat event; ok is false at the stream's end.
func (s *seatStream) next() (ev seatEvent, ok bool) {
	s.t.Helper()
	var data string
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line == "" && data != "":
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				s.t.Fatalf("a seat event that is not JSON: %v\n%s", err, data)
			}
			return ev, true
		}
	}
	return seatEvent{}, false
}

// question reads events until one carries a question.
func (s *seatStream) question() seatEvent {
	s.t.Helper()
	for {
		ev, ok := s.next()
		if !ok {
			s.t.Fatal("the stream ended before a question")
		}
		if ev.Question != nil {
			return ev
		}
	}
}

// act posts an answer form to the seat at path and returns the status
// and the body.
func act(t *testing.T, srv *httptest.Server, path string, form url.Values) (int, string) {
	t.Helper()
	p, query, _ := strings.Cut(path, "?")
	resp, err := srv.Client().PostForm(srv.URL+p+"/act?"+query, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// answerForm is the form of an answer to question ev.N of a stream.
func answerForm(ev seatEvent, kind, move string) url.Values {
	return url.Values{"session": {ev.Session}, "n": {strconv.FormatUint(ev.N, 10)}, "kind": {kind}, "move": {move}}
}

// asking asks seat 0 of game id q in the background; the answer and the
// error come on the channel.
func asking(v *Viewer, ctx context.Context, id string, q Question) chan struct {
	a   Answer
	err error
} {
	ch := make(chan struct {
		a   Answer
		err error
	}, 1)
	go func() {
		a, err := v.Ask(ctx, id, 0, q)
		ch <- struct {
			a   Answer
			err error
		}{a, err}
	}()
	return ch
}

var testQuestion = Question{Prompt: "Your move", Choices: []Choice{
	{Answer: Answer{Kind: AnswerMove, Move: "f5"}, Squares: []string{"f5"}},
	{Answer: Answer{Kind: AnswerResign}, Label: "Resign"},
}}

// TestSeatToken: a seat's token is 128 random bits (hex), new at every
// OpenSeat; a token that differs, even in its last character, or a
// prefix of it, opens nothing (403), as does the old token of a seat
// opened again.
func TestSeatToken(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	u, err := url.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("seat")
	if b, err := hex.DecodeString(token); err != nil || len(b) != 16 || u.Path != "/play/g" {
		t.Fatalf("OpenSeat gave %q: want /play/g?seat= and 32 hex digits", path)
	}
	path1, err := v.OpenSeat("g", 1)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(path1, token) {
		t.Fatalf("two seats with one token: %s, %s", path, path1)
	}
	last := "0"
	if strings.HasSuffix(token, "0") {
		last = "1"
	}
	for _, bad := range []string{token[:len(token)-1] + last, token[:16], strings.ToUpper(token) + "0"} {
		resp, err := http.Get(srv.URL + "/play/g?seat=" + bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("token %q: %d, want 403", bad, resp.StatusCode)
		}
		if _, code := followSeat(t, srv, "/play/g?seat="+bad, ""); code != http.StatusForbidden {
			t.Errorf("the events of token %q: %d, want 403", bad, code)
		}
	}
	again, err := v.OpenSeat("g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if again == path {
		t.Fatal("a seat opened again keeps its token")
	}
	if _, code := followSeat(t, srv, path, ""); code != http.StatusForbidden {
		t.Errorf("the old link of a seat opened again: %d, want 403", code)
	}
	if _, code := followSeat(t, srv, again, ""); code != http.StatusOK {
		t.Errorf("the new link: %d, want 200", code)
	}
	if _, err := v.OpenSeat("g", 2); err == nil {
		t.Error("OpenSeat of seat 2 did not fail")
	}
}

// TestSeatPage: the seat's page gives the browser its cookie once and
// shows the seat's own view; without a token it is the spectator's live
// page, and a spectator's answer, or one from a page that does not hold
// the seat, is refused with 403.
func TestSeatPage(t *testing.T) {
	_, srv, path := seatServer(t, "g")
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == seatCookie {
			cookie = c
		}
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "/static/play.js") {
		t.Fatalf("the seat page: %d\n%.300s", resp.StatusCode, body)
	}
	if cookie == nil || len(cookie.Value) != 32 || !cookie.HttpOnly || cookie.Path != "/play/" {
		t.Errorf("the seat page's cookie: %+v", cookie)
	}
	if page := string(body); !strings.Contains(page, `black\u003c/svg`) || strings.Contains(page, `white\u003c/svg`) {
		t.Error("the black seat's page does not hold its own view alone")
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	req.AddCookie(cookie)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) != 0 {
		t.Errorf("a browser with its cookie is given another: %v", resp.Cookies())
	}

	resp, err = http.Get(srv.URL + "/play/g")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "/static/live.js") {
		t.Errorf("the page without a token: %d, want the live page", resp.StatusCode)
	}
	form := url.Values{"session": {"x"}, "n": {"1"}, "kind": {"resign"}}
	if code, msg := act(t, srv, "/play/g", form); code != http.StatusForbidden || !strings.Contains(msg, "spectator") {
		t.Errorf("a spectator's answer: %d %q, want 403", code, msg)
	}
	if code, msg := act(t, srv, path, form); code != http.StatusForbidden || !strings.Contains(msg, "another page") {
		t.Errorf("an answer from a page that does not hold the seat: %d %q, want 403", code, msg)
	}
}

// TestSeatOneBrowser: the first page to follow a seat holds it; another
// browser gets 409; a page of the same browser (a reload) takes it over,
// and the old page's stream says so and ends; its answers are refused.
func TestSeatOneBrowser(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	const ann, bob = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
	first, code := followSeat(t, srv, path, ann)
	if code != http.StatusOK {
		t.Fatalf("the first page: %d", code)
	}
	ev, _ := first.next()
	if ev.Taken || ev.Closed || ev.State.Info.ID != "g" || ev.State.Frame.Board != "<svg>black</svg>" || ev.State.Frame.Views != nil {
		t.Fatalf("the first event: %+v", ev)
	}
	for _, c := range []string{bob, "", "not-a-cookie"} {
		if _, code := followSeat(t, srv, path, c); code != http.StatusConflict {
			t.Errorf("another browser (cookie %q): %d, want 409", c, code)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := asking(v, ctx, "g", testQuestion)
	old := first.question()
	reload, code := followSeat(t, srv, path, ann)
	if code != http.StatusOK {
		t.Fatalf("a reload: %d, want 200", code)
	}
	cur := reload.question()
	if cur.Session == old.Session || cur.N != old.N {
		t.Errorf("the reload's question: session %q n %d; the old page's %q n %d", cur.Session, cur.N, old.Session, old.N)
	}
	for {
		ev, ok := first.next()
		if !ok {
			t.Fatal("the old page's stream ended without saying that the seat was taken")
		}
		if ev.Taken {
			break
		}
	}
	if _, ok := first.next(); ok {
		t.Error("the old page's stream goes on after it was taken")
	}
	if code, _ := act(t, srv, path, answerForm(old, "move", "f5")); code != http.StatusForbidden {
		t.Errorf("the old page's answer: %d, want 403", code)
	}
	if code, msg := act(t, srv, path, answerForm(cur, "move", "f5")); code != http.StatusNoContent {
		t.Fatalf("the new page's answer: %d %q", code, msg)
	}
	if r := <-res; r.err != nil || r.a != (Answer{Kind: AnswerMove, Move: "f5"}) {
		t.Errorf("Ask: %+v, %v", r.a, r.err)
	}
}

// TestSeatQuestionSentOnce: a stream sends a question's choices once; the
// events that follow while it is asked carry its number and Same, and a
// stream opened then (a reload) gets it whole.
func TestSeatQuestionSentOnce(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	const ann = "0123456789abcdef0123456789abcdef"
	st, _ := followSeat(t, srv, path, ann)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := asking(v, ctx, "g", testQuestion)
	first := st.question()
	v.Update("g", Frame{Board: "<svg>later</svg>", ToMove: 0})
	ev, ok := st.next()
	if !ok || ev.N != first.N || !ev.Same || ev.Question != nil {
		t.Errorf("the event after an update: ok %v, n %d (question %d), same %v, question %v", ok, ev.N, first.N, ev.Same, ev.Question)
	}
	again, _ := followSeat(t, srv, path, ann) // a reload
	if ev := again.question(); ev.N != first.N || ev.Same || len(ev.Question.Choices) != len(testQuestion.Choices) {
		t.Errorf("a new stream's first event: n %d, same %v, %d choices", ev.N, ev.Same, len(ev.Question.Choices))
	}
	cancel()
	<-res
}

// TestSeatAnswers: an answer not among the choices is 400 (nothing is
// answered), a stale question 409, a long body 413, a malformed form 400;
// the question's deadline comes as time left.
func TestSeatAnswers(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	st, _ := followSeat(t, srv, path, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q := testQuestion
	q.Deadline = time.Now().Add(time.Hour)
	res := asking(v, ctx, "g", q)
	ev := st.question()
	if ev.Left <= 0 || ev.Left > time.Hour.Milliseconds() || ev.Question.Prompt != "Your move" {
		t.Errorf("the question's event: left %d ms, prompt %q", ev.Left, ev.Question.Prompt)
	}
	for _, bad := range []struct {
		form url.Values
		code int
		says string
	}{
		{answerForm(ev, "move", "e6"), http.StatusBadRequest, `move "e6" is not one of the answers allowed`},
		{answerForm(ev, "offer-draw", ""), http.StatusBadRequest, "not one of the answers"},
		{answerForm(ev, "castle", ""), http.StatusBadRequest, `unknown answer kind "castle"`},
		{url.Values{"session": {ev.Session}, "kind": {"move"}, "move": {"f5"}}, http.StatusBadRequest, "names no question"},
		{answerForm(ev, "move", strings.Repeat("f5", 3000)), http.StatusRequestEntityTooLarge, "longer than 4096 bytes"},
	} {
		if code, msg := act(t, srv, path, bad.form); code != bad.code || !strings.Contains(msg, bad.says) {
			t.Errorf("%v: %d %q, want %d %q", bad.form, code, msg, bad.code, bad.says)
		}
	}
	select {
	case r := <-res:
		t.Fatalf("a refused answer answered Ask: %+v %v", r.a, r.err)
	default:
	}
	stale := ev
	stale.N++
	if code, msg := act(t, srv, path, answerForm(stale, "move", "f5")); code != http.StatusConflict || !strings.Contains(msg, "no longer asked") {
		t.Errorf("an answer to a question not asked yet: %d %q, want 409", code, msg)
	}
	if code, msg := act(t, srv, path, answerForm(ev, "resign", "")); code != http.StatusNoContent {
		t.Fatalf("resign: %d %q", code, msg)
	}
	if r := <-res; r.err != nil || r.a.Kind != AnswerResign {
		t.Errorf("Ask: %+v, %v", r.a, r.err)
	}
	if code, msg := act(t, srv, path, answerForm(ev, "move", "f5")); code != http.StatusConflict || !strings.Contains(msg, "no longer asked") {
		t.Errorf("a second answer to a question answered: %d %q, want 409", code, msg)
	}
}

// TestSeatSetup: a Geister setup's answer is four distinct letters of the
// seat's ghosts, nothing else.
func TestSeatSetup(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	st, _ := followSeat(t, srv, path, "")
	setup := &GeisterSetup{Red: "ABCD"}
	for i := range setup.Ghosts {
		setup.Ghosts[i] = SetupGhost{Letter: string(rune('A' + i)), Square: strconv.Itoa(25 + i)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := asking(v, ctx, "g", Question{Prompt: "Set your red ghosts", Setup: setup})
	ev := st.question()
	for _, bad := range []string{"", "ABC", "ABCDE", "AABC", "ABCI", "abcd", "AB,C", "ＡBCD"} {
		if code, _ := act(t, srv, path, answerForm(ev, "move", bad)); code != http.StatusBadRequest {
			t.Errorf("setup %q: %d, want 400", bad, code)
		}
	}
	if code, msg := act(t, srv, path, answerForm(ev, "move", "HGEA")); code != http.StatusNoContent {
		t.Fatalf("setup HGEA: %d %q", code, msg)
	}
	if r := <-res; r.err != nil || r.a != (Answer{Kind: AnswerMove, Move: "HGEA"}) {
		t.Errorf("Ask: %+v, %v", r.a, r.err)
	}
}

// TestSeatAsk: Ask ends with its context (the page then shows no
// question), with ErrNoSeat when the seats close (the page's stream says
// closed and ends), and fails at once for a seat never opened or one
// asked already.
func TestSeatAsk(t *testing.T) {
	v, srv, path := seatServer(t, "g")
	st, _ := followSeat(t, srv, path, "")
	if _, err := v.Ask(context.Background(), "g", 1, testQuestion); !errors.Is(err, ErrNoSeat) {
		t.Errorf("Ask of a seat not open: %v, want ErrNoSeat", err)
	}
	if _, err := v.Ask(context.Background(), "h", 0, testQuestion); !errors.Is(err, ErrNoSeat) {
		t.Errorf("Ask of a game with no seats: %v, want ErrNoSeat", err)
	}
	if _, err := v.Ask(context.Background(), "g", -1, testQuestion); err == nil {
		t.Error("Ask of seat -1 did not fail")
	}

	ctx, cancel := context.WithCancel(context.Background())
	res := asking(v, ctx, "g", testQuestion)
	ev := st.question()
	if _, err := v.Ask(context.Background(), "g", 0, testQuestion); !errors.Is(err, ErrSeatBusy) {
		t.Errorf("a second Ask at once: %v, want ErrSeatBusy", err)
	}
	cancel()
	if r := <-res; !errors.Is(r.err, context.Canceled) {
		t.Errorf("Ask after its context ended: %+v, %v", r.a, r.err)
	}
	for {
		e, ok := st.next()
		if !ok {
			t.Fatal("the stream ended")
		}
		if e.Question == nil && !e.Same {
			break
		}
	}
	if code, _ := act(t, srv, path, answerForm(ev, "move", "f5")); code != http.StatusConflict {
		t.Errorf("an answer to the question whose Ask ended: %d, want 409", code)
	}

	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res = asking(v, ctx, "g", testQuestion)
	st.question()
	if _, err := v.OpenSeat("g", 0); !errors.Is(err, ErrSeatBusy) {
		t.Errorf("OpenSeat of a seat asked: %v, want ErrSeatBusy", err)
	}
	v.Finish("g", Frame{Board: "<svg/>", ToMove: -1}, "black wins", "")
	v.CloseSeats("g")
	if r := <-res; !errors.Is(r.err, ErrNoSeat) {
		t.Errorf("Ask when the seats closed: %+v, %v, want ErrNoSeat", r.a, r.err)
	}
	var last seatEvent
	for {
		e, ok := st.next()
		if !ok {
			break
		}
		last = e
	}
	if !last.Closed || !last.State.Finished || last.State.Result != "black wins" {
		t.Errorf("the stream's last event: closed %v, finished %v, result %q", last.Closed, last.State.Finished, last.State.Result)
	}
	if _, err := v.Ask(context.Background(), "g", 0, testQuestion); !errors.Is(err, ErrNoSeat) {
		t.Errorf("Ask once the seats closed: %v, want ErrNoSeat", err)
	}
}

// TestSeatBeforeBegin: a seat opened before its game begins streams the
// game once it begins.
func TestSeatBeforeBegin(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close) // after the stream's cleanup, which ends it
	path, err := v.OpenSeat("g", 1)
	if err != nil {
		t.Fatal(err)
	}
	st, code := followSeat(t, srv, path, "")
	if code != http.StatusOK {
		t.Fatalf("the stream: %d", code)
	}
	if ev, _ := st.next(); ev.State.Info.ID != "g" || ev.State.Frame.ToMove != -1 {
		t.Errorf("before the game: %+v", ev.State)
	}
	v.Begin(GameInfo{ID: "g", Game: "othello", Title: "begun", Seats: [2]string{"black", "white"}}, Frame{Board: "<svg/>", Ply: 0})
	if ev, _ := st.next(); ev.State.Info.Title != "begun" {
		t.Errorf("once begun: %+v", ev.State)
	}
}
