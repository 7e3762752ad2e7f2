package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/browsertest"
	"github.com/botarena/botarena/viewer"
)

// seatEvent is one "seat" event of a seat's event stream, as the seat
// page reads it: the tests of the four games' persons follow their seats
// with it.
type seatEvent struct {
	Session string `json:"session"`
	State   struct {
		Frame    viewer.Frame `json:"frame"`
		From     int          `json:"from"`
		Moves    []string     `json:"moves"`
		Finished bool         `json:"finished"`
		Result   string       `json:"result"`
	} `json:"state"`
	N        uint64           `json:"n"`
	Question *viewer.Question `json:"question"`
	Closed   bool             `json:"closed"`
}

// humanGame is one game with persons in it, played by a runner on a real
// viewer served over HTTP, as arena match -web plays it: the tests of the
// four games' persons play their seats through the seat pages' HTTP
// interface.
type humanGame struct {
	t    *testing.T
	srv  *httptest.Server
	job  *gameJob
	out  *lineWriter   // what the game prints: its seats' links
	res  gameResult    // the result, once done is closed
	done chan struct{} // closed when the game is over
}

// seatLink is a seat's link as a game prints it: "NAME plays seat N at
// URL" is seat N-1's.
type seatLink struct {
	seat int
	url  string
}

// startHumanGame starts job with r on a new viewer served by httptest
// (the job's Watch and Web are set here) and returns at once. The game
// stops, and is waited for, when the test ends.
func startHumanGame(t *testing.T, r runner, job *gameJob) *humanGame {
	t.Helper()
	v, err := viewer.New(viewer.Options{Games: viewer.Games()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	g := &humanGame{t: t, srv: srv, job: job, out: &lineWriter{lines: make(chan string, 2)}, done: make(chan struct{})}
	job.Watch = v
	job.Web = &webSeats{host: v, url: srv.URL + "/", out: g.out}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		<-g.done
	})
	go func() {
		defer close(g.done)
		g.res = r.Play(ctx, job)
	}()
	return g
}

// wait returns the game's result.
func (g *humanGame) wait() gameResult {
	<-g.done
	return g.res
}

// link returns the next seat link the game prints, failing the test if
// the game ends without printing it.
func (g *humanGame) link() seatLink {
	g.t.Helper()
	var line string
	select {
	case line = <-g.out.lines:
	case <-g.done:
		select {
		case line = <-g.out.lines: // printed before the game ended
		default:
			g.t.Fatalf("the game ended before it printed a seat link: %+v", g.res)
		}
	}
	m := seatLinkLine.FindStringSubmatch(line)
	if m == nil || !strings.HasPrefix(m[2], g.srv.URL+"/play/"+g.job.ID+"?seat=") {
		g.t.Fatalf("the game printed %q, not a link to a seat page of game %s on the viewer", line, g.job.ID)
	}
	n, _ := strconv.Atoi(m[1])
	return seatLink{seat: n - 1, url: m[2]}
}

// seatLinks returns the links of the persons' seats, by seat ("" for a
// program's), as the game prints them.
func (g *humanGame) seatLinks() [2]string {
	g.t.Helper()
	var links [2]string
	for _, p := range g.job.Seats {
		if p.Human {
			l := g.link()
			links[l.seat] = l.url
		}
	}
	return links
}

// openSeats opens the pages of the persons' seats, by seat (nil for a
// program's).
func (g *humanGame) openSeats() [2]*seatPage {
	g.t.Helper()
	var pages [2]*seatPage
	for i, l := range g.seatLinks() {
		if l != "" {
			pages[i] = openSeatPage(g.t, l)
		}
	}
	return pages
}

// seatLinkLine is the line a game prints for a person's seat.
var seatLinkLine = regexp.MustCompile(`^Game \d+: .* plays seat (\d) at (\S+)$`)

// seatPage is a person's seat page in a test: the seat's event stream,
// read as the page reads it, and answers posted as the page posts them.
type seatPage struct {
	t       *testing.T
	page    *url.URL // the seat's page, http://HOST/play/ID?seat=TOKEN
	es      *browsertest.EventStream
	session string    // the stream's session, which answers name
	last    seatEvent // the last event read
	asked   uint64    // the number of the last question next returned
}

// openSeatPage opens the event stream of the seat page link, until the test
// ends.
func openSeatPage(t *testing.T, link string) *seatPage {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	ev := *u
	ev.Path += "/events"
	es, done := browsertest.OpenEvents(t, ev.String())
	t.Cleanup(done)
	return &seatPage{t: t, page: u, es: es}
}

// next reads the seat's events up to the next question it has not
// returned yet, or nil when the seat closes first (the game is over).
func (s *seatPage) next() *seatEvent {
	s.t.Helper()
	if s.last.Closed {
		return nil
	}
	for {
		name, data, ok := s.es.Next()
		if !ok {
			s.t.Fatal("the seat's event stream ended before the seat closed")
		}
		if name != "seat" {
			continue
		}
		var ev seatEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			s.t.Fatalf("seat event: %v", err)
		}
		s.session, s.last = ev.Session, ev
		if ev.Closed {
			return nil
		}
		if ev.Question != nil && ev.N > s.asked {
			s.asked = ev.N
			return &ev
		}
	}
}

// post posts an answer to question n as the seat's page does, with the
// page's session, and with the seat's token when token is true (else as a
// spectator's page); it returns the status.
func (s *seatPage) post(token bool, n uint64, kind viewer.AnswerKind, move string) int {
	s.t.Helper()
	if !token {
		return s.postAs("", n, kind, move)
	}
	return s.postAs(s.page.Query().Get("seat"), n, kind, move)
}

// postAs is post with the token given ("" for none).
func (s *seatPage) postAs(token string, n uint64, kind viewer.AnswerKind, move string) int {
	s.t.Helper()
	u := *s.page
	u.Path += "/act"
	u.RawQuery = ""
	if token != "" {
		u.RawQuery = url.Values{"seat": {token}}.Encode()
	}
	form := url.Values{"session": {s.session}, "n": {strconv.FormatUint(n, 10)}, "kind": {kind.String()}, "move": {move}}
	resp, err := http.PostForm(u.String(), form)
	if err != nil {
		s.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// answer answers question ev from the seat's page, which must take it.
func (s *seatPage) answer(ev *seatEvent, kind viewer.AnswerKind, move string) {
	s.t.Helper()
	if code := s.post(true, ev.N, kind, move); code != http.StatusNoContent {
		s.t.Fatalf("answer %s %q to %q: status %d", kind, move, ev.Question.Prompt, code)
	}
}

// choose answers question ev with the choice c, as a click on it does.
func (s *seatPage) choose(ev *seatEvent, c viewer.Choice) {
	s.t.Helper()
	s.answer(ev, c.Answer.Kind, c.Answer.Move)
}

// questionMoves returns q's moves: the choices that the board's squares
// make.
func questionMoves(q *viewer.Question) []viewer.Choice {
	var moves []viewer.Choice
	for _, c := range q.Choices {
		if c.Answer.Kind == viewer.AnswerMove {
			moves = append(moves, c)
		}
	}
	return moves
}

// questionHas reports whether q offers an answer of kind.
func questionHas(q *viewer.Question, kind viewer.AnswerKind) bool {
	return slices.ContainsFunc(q.Choices, func(c viewer.Choice) bool { return c.Answer.Kind == kind })
}

// TestHumanPlayerSpec checks how a match takes a person: "human" and
// "NAME=human" are persons, a match with one needs -web, and without
// -time it gets the game's time for persons (Othello's and PDD's
// platforms give programs seconds), while a -time given stands.
func TestHumanPlayerSpec(t *testing.T) {
	for _, c := range []struct {
		game string
		args []string
		want string // the time control, or the error's words
		err  bool
	}{
		{"othello", []string{"human", "random"}, "-web ADDR", true},
		{"othello", []string{"human", "random", "-web", "127.0.0.1:0"}, "60s/move", false},
		{"othello", []string{"alice=human", "random", "-web", "127.0.0.1:0", "-time", "5s/move"}, "5s/move", false},
		{"pdd", []string{"random", "human", "-web", "127.0.0.1:0"}, "60s/move", false},
		{"darkchess", []string{"human", "random", "-web", "127.0.0.1:0"}, "900s", false},
		{"othello", []string{"random", "greedy"}, "10s/move", false},
	} {
		def, err := findGame(c.game)
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-out", filepath.Join(t.TempDir(), "run")}, c.args...)
		pr, err := prepareRun("match", def, args, new(bytes.Buffer), new(bytes.Buffer))
		if c.err {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("arena match %s %q: error %v, want one saying %s", c.game, c.args, err, c.want)
			}
			if err == nil {
				pr.close()
			}
			continue
		}
		if err != nil {
			t.Errorf("arena match %s %q: %v", c.game, c.args, err)
			continue
		}
		if pr.cfg.Time != c.want {
			t.Errorf("arena match %s %q: time %q, want %q", c.game, c.args, pr.cfg.Time, c.want)
		}
		persons := map[string]string{"human": "human", "alice=human": "alice"} // spec: name
		for _, p := range pr.cfg.Players {
			name, person := persons[p.Spec]
			if p.Human != person || person && p.Name != name {
				t.Errorf("player %q: a person %v, named %q", p.Spec, p.Human, p.Name)
			}
		}
		pr.close()
	}
}
