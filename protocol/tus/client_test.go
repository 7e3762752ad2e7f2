package tus_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/botarena/internal/sharedtest"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/protocol/tus"
	"github.com/botarena/botarena/timer"
	"github.com/google/go-cmp/cmp"
)

// The tests below run the client against a scripted server on the far end of
// a net.Pipe, inside a synctest bubble: nothing sleeps, a deadlock fails fast,
// the one-second CLOSE grace and move deadlines run on the bubble's clock,
// and synctest.Test fails if a goroutine outlives the test.

// clientPeer is a scripted TUS server on the server end of a net.Pipe.
type clientPeer struct {
	t    *testing.T
	conn net.Conn
	got  chan string // the client's lines, without terminators; closed at EOF
}

// newClientPeer returns a peer and the client's end of the pipe.
func newClientPeer(t *testing.T) (*clientPeer, net.Conn) {
	t.Helper()
	srv, cli := net.Pipe()
	p := &clientPeer{t: t, conn: srv, got: make(chan string, 1024)}
	go func() {
		defer close(p.got)
		sc := bufio.NewScanner(srv)
		for sc.Scan() {
			p.got <- sc.Text()
		}
	}()
	t.Cleanup(func() { srv.Close() })
	return p, cli
}

// send writes lines, each followed by LF.
func (p *clientPeer) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		p.sendRaw(l + "\n")
	}
}

// sendRaw writes s as it is.
func (p *clientPeer) sendRaw(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.conn, s); err != nil {
		p.t.Fatalf("server write %q: %v", s, err)
	}
}

// trySend writes lines, each followed by LF, while the client may be closing
// the connection: write errors are ignored.
func (p *clientPeer) trySend(lines ...string) {
	for _, l := range lines {
		io.WriteString(p.conn, l+"\n")
	}
}

// next returns the client's next line; false once the client closed.
func (p *clientPeer) next() (string, bool) {
	p.t.Helper()
	select {
	case l, ok := <-p.got:
		return l, ok
	case <-time.After(time.Hour):
		p.t.Fatal("the client is stuck: no line and no close")
		return "", false
	}
}

// expect checks the client's next line.
func (p *clientPeer) expect(want string) {
	p.t.Helper()
	if got, ok := p.next(); got != want || !ok {
		p.t.Fatalf("client sent %q (open %v), want %q", got, ok, want)
	}
}

// quiet checks that the client has nothing more to say for now: every
// goroutine is blocked and no line is waiting.
func (p *clientPeer) quiet() {
	p.t.Helper()
	synctest.Wait()
	select {
	case l, ok := <-p.got:
		if ok {
			p.t.Fatalf("client sent %q, want nothing", l)
		}
	default:
	}
}

// rest returns the client's remaining lines up to its close.
func (p *clientPeer) rest() []string {
	p.t.Helper()
	var lines []string
	for {
		l, ok := p.next()
		if !ok {
			return lines
		}
		lines = append(lines, l)
	}
}

type clientResult struct {
	out tus.Outcome
	err error
}

// runClient starts c.Run on conn.
func runClient(ctx context.Context, c *tus.Client, conn net.Conn, p othello.Player) <-chan clientResult {
	done := make(chan clientResult, 1)
	go func() {
		out, err := c.Run(ctx, conn, p)
		done <- clientResult{out, err}
	}()
	return done
}

// boardLine is the BOARD line for p's discs, LF included.
func boardLine(p othello.Position) string {
	return string(tus.AppendEvent(nil, tus.BoardEvent(p)))
}

// putLine is the PUT line for a placement.
func putLine(m othello.Move) string {
	return fmt.Sprintf("PUT %d %d", m.Square().X(), m.Square().Y())
}

// mustPosition builds a position for tests.
func mustPosition(t *testing.T, black, white othello.Bitboard, turn othello.Color) othello.Position {
	t.Helper()
	p, err := othello.NewPosition(othello.Setup{Black: black, White: white, Turn: turn})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// firstMove plays the first legal move and reports each call on calls.
func firstMove(calls chan<- othello.Position) othello.Player {
	return othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
		if calls != nil {
			calls <- p
		}
		return p.AppendLegalMoves(nil)[0], nil
	})
}

// neverCalled fails the test if the client asks it for a move.
func neverCalled(t *testing.T) othello.Player {
	return othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
		t.Errorf("Play called with %s", p)
		return othello.NoMove, errors.New("unexpected call")
	})
}

// --- golden: the real server's lines ---------------------------------------

// clientLogLine is one message of a -debug console log.
type clientLogLine struct {
	send      bool // Send to (server to client); else Recv from
	nick, msg string
}

// readClientDebugLog extracts the messages of a -debug log: each line is
// searched for "Send to " or "Recv from " (board fragments may come first),
// the nick runs to the first ':', the message to the end of the line.
func readClientDebugLog(t *testing.T, path string) []clientLogLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []clientLogLine
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		for _, mark := range []string{"Send to ", "Recv from "} {
			i := strings.Index(line, mark)
			if i < 0 {
				continue
			}
			nick, msg, ok := strings.Cut(line[i+len(mark):], ":")
			if !ok {
				t.Fatalf("%s: no ':' in %q", path, line)
			}
			out = append(out, clientLogLine{send: mark == "Send to ", nick: nick, msg: msg})
		}
	}
	return out
}

// clientGoldenGame is what one player of a debug log received and sent.
type clientGoldenGame struct {
	nick  string
	color othello.Color
	steps []clientLogLine // in log order: lines to send and the PUTs to expect
	puts  []string        // the player's PUT lines
}

// clientGoldenGames splits a debug log by player. A player is known by its
// nick; before the server processed its NICK it is called BLACK or WHITE, and
// the label of "Recv from BLACK:NICK x" gives x's colour. The START line is
// the one sent to the nick if there is one, else "START <colour>" (the real
// server sometimes logged it under the default name; the bytes are the same).
// Steps stop at END: the client leaves then.
func clientGoldenGames(t *testing.T, log []clientLogLine) []clientGoldenGame {
	t.Helper()
	var games []clientGoldenGame
	for _, l := range log {
		name, ok := strings.CutPrefix(l.msg, "NICK ")
		if l.send || !ok {
			continue
		}
		g := clientGoldenGame{nick: name}
		switch l.nick {
		case "BLACK":
			g.color = othello.Black
		case "WHITE":
			g.color = othello.White
		default:
			t.Fatalf("NICK %s from %s", name, l.nick)
		}
		sawStart := false
		for _, m := range log {
			if m.nick != name {
				continue
			}
			if m.send {
				sawStart = sawStart || strings.HasPrefix(m.msg, "START")
			} else if strings.HasPrefix(m.msg, "PUT ") {
				g.puts = append(g.puts, m.msg)
			} else {
				continue // the post-END CLOSE
			}
			g.steps = append(g.steps, m)
			if strings.HasPrefix(m.msg, "END ") {
				break
			}
		}
		if !sawStart {
			start := clientLogLine{send: true, nick: name, msg: "START 1"}
			if g.color == othello.White {
				start.msg = "START -1"
			}
			g.steps = append([]clientLogLine{start}, g.steps...)
		}
		games = append(games, g)
	}
	return games
}

// TestOthelloClientGolden feeds the client, for each player of each real
// debug log, the lines the server sent that player, with a bot that replays
// that player's moves. The client's PUTs must be the log's, in order, each
// sent only after the TURN that asked for it, and the client must read END.
func TestClientGolden(t *testing.T) {
	dir := sharedtest.Dir(t, "othello")
	files, _ := filepath.Glob(filepath.Join(dir, "*server-debug*.txt"))
	if len(files) == 0 {
		t.Skipf("no debug logs in %s", dir)
	}
	for _, file := range files {
		games := clientGoldenGames(t, readClientDebugLog(t, file))
		if len(games) < 2 {
			t.Fatalf("%s: %d players", file, len(games))
		}
		for _, g := range games {
			t.Run(filepath.Base(file)+"/"+g.nick, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { clientGolden(t, g) })
			})
		}
	}
}

func clientGolden(t *testing.T, g clientGoldenGame) {
	moves := make(chan string, len(g.puts))
	for _, p := range g.puts {
		moves <- p
	}
	close(moves)
	player := othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
		me := p.Turn()
		if me != g.color || p.Turn() != me {
			t.Errorf("Play(me=%v, turn=%v), want %v", me, p.Turn(), g.color)
		}
		put, ok := <-moves
		if !ok {
			return othello.NoMove, errors.New("more calls than moves in the log")
		}
		cmd, err := tus.ParseCommand(put)
		if err != nil {
			return othello.NoMove, err
		}
		return othello.Place(cmd.Square()), nil
	})

	peer, conn := newClientPeer(t)
	c := &tus.Client{Nick: g.nick, MoveTime: 8 * time.Second}
	done := runClient(t.Context(), c, conn, player)

	var got []string
	var last othello.Position
	var end string
	for _, s := range g.steps {
		if s.send {
			peer.send(s.msg)
			if e, err := tus.ParseEvent(s.msg); err == nil && e.Kind == tus.Board {
				last = mustPosition(t, e.Black, e.White, othello.Black)
			}
			end, _ = strings.CutPrefix(s.msg, "END ")
			continue
		}
		// Wait for the PUT the log has here; NICK may come first.
		for {
			l, ok := peer.next()
			if !ok {
				t.Fatalf("client closed waiting for %q; sent %q", s.msg, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, "PUT") {
				break
			}
		}
	}
	r := <-done
	got = append(got, peer.rest()...)
	if r.err != nil {
		t.Fatalf("Run: %v", r.err)
	}
	want := append(append([]string{"NICK " + g.nick}, g.puts...), "CLOSE")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("client lines (-want +got):\n%s", diff)
	}
	if r.out.Color != g.color || !r.out.Started || !r.out.Ended || r.out.OpponentLeft || r.out.End.Text != end {
		t.Errorf("outcome %+v, want colour %v, END %q", r.out, g.color, end)
	}
	if r.out.Final.Black() != last.Black() || r.out.Final.White() != last.White() || !r.out.Final.IsOver() {
		t.Errorf("Final = %s, want the last BOARD %s, a finished game", r.out.Final, last)
	}
	wantRes := othello.Result{Reason: othello.Discs, Winner: othello.Black, Black: last.Count(othello.Black), White: last.Count(othello.White)}
	if r.out.Result != wantRes {
		t.Errorf("Result = %v, want %v", r.out.Result, wantRes)
	}
}

// --- whole games -------------------------------------------------------------

// clientReferee plays one game between two clients the way the TUS server
// does: START, BOARD and TURN 1 to both; after each valid
// PUT, BOARD to both and then TURN (the same colour again when the other side
// must pass) or END. A PUT out of turn gets ERROR 3, an illegal one ERROR 2.
// It returns the game once both clients have sent CLOSE.
func clientReferee(t *testing.T, conns [2]net.Conn, nicks [2]string) *othello.Game {
	type msg struct {
		from othello.Color
		line string
	}
	in := make(chan msg, 256)
	for c, conn := range conns {
		go func() {
			sc := bufio.NewScanner(conn)
			for sc.Scan() {
				in <- msg{othello.Color(c), sc.Text()}
			}
		}()
	}
	write := func(c othello.Color, s string) {
		if _, err := io.WriteString(conns[c], s); err != nil {
			t.Errorf("referee write to %v: %v", c, err)
		}
	}
	both := func(s string) { write(othello.Black, s); write(othello.White, s) }
	turn := func(c othello.Color) string {
		return map[othello.Color]string{othello.Black: "1", othello.White: "-1"}[c]
	}

	g := othello.NewGame(othello.TUS)
	write(othello.Black, "START 1\n")
	write(othello.White, "START -1\n")
	both(boardLine(g.Position()))
	both("TURN 1\n")
	closed := 0
	for closed < 2 {
		m := <-in
		cmd, err := tus.ParseCommand(m.line)
		switch {
		case err != nil:
			t.Errorf("%v sent %q: %v", m.from, m.line, err)
		case cmd.Kind == tus.Close:
			closed++
		case cmd.Kind != tus.Put:
		case g.IsOver() || m.from != g.Turn():
			t.Errorf("%v sent %q out of turn", m.from, m.line)
			write(m.from, "ERROR 3\n")
		case g.Play(othello.Place(cmd.Square())) != nil:
			t.Errorf("%v sent the illegal %q", m.from, m.line)
			write(m.from, "ERROR 2\n")
		default:
			both(boardLine(g.Position()))
			if g.Position().MustPass() {
				g.Play(othello.Pass)
			}
			if r, over := g.Result(); over {
				both("END " + tus.FormatEnd(r, nicks[0], nicks[1]) + "\n")
			} else {
				both("TURN " + turn(g.Turn()) + "\n")
			}
		}
	}
	return g
}

// TestOthelloClientSelfPlay: two clients with seeded random players play
// whole games (passes included) against clientReferee; both must report the
// referee's result and final position.
func TestClientSelfPlay(t *testing.T) {
	passes := 0
	for seed := range uint64(12) {
		synctest.Test(t, func(t *testing.T) {
			nicks := [2]string{"b" + fmt.Sprint(seed), "w" + fmt.Sprint(seed)}
			var conns [2]net.Conn
			var done [2]<-chan clientResult
			for c := range conns {
				srv, cli := net.Pipe()
				defer srv.Close()
				conns[c] = srv
				rng := rand.New(rand.NewPCG(seed, uint64(c)))
				player := othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
					moves := p.AppendLegalMoves(nil)
					return moves[rng.IntN(len(moves))], nil
				})
				done[c] = runClient(t.Context(), &tus.Client{Nick: nicks[c]}, cli, player)
			}
			g := clientReferee(t, conns, nicks)
			want, _ := g.Result()
			for _, m := range g.Moves() {
				if m.IsPass() {
					passes++
				}
			}
			for c := range done {
				r := <-done[c]
				if r.err != nil {
					t.Fatalf("%s: %v", nicks[c], r.err)
				}
				if r.out.Color != othello.Color(c) || r.out.Result != want || r.out.Final.Black() != g.Position().Black() || r.out.Final.White() != g.Position().White() {
					t.Errorf("%s: outcome %+v, want %v in %s", nicks[c], r.out, want, g.Position())
				}
			}
		})
	}
	t.Logf("%d passes in the games", passes)
}

// --- the rules a client follows --------------------------------------------

// TestOthelloClientOnlyOurTurn: START, BOARD and the opponent's TURNs never
// ask for a move; NICK goes out before anything is read; TURN before START
// is not acted on.
func TestClientOnlyOurTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{Nick: "me"}, conn, neverCalled(t))
		peer.expect("NICK me")
		start := othello.TUS.Start
		peer.send("TURN -1") // before START: nothing
		peer.sendRaw(boardLine(start))
		peer.send("TURN 1")
		peer.quiet()
		peer.send("START -1")
		peer.sendRaw(boardLine(start))
		peer.quiet()
		peer.send("TURN 1", "BOARD")
		peer.sendRaw(boardLine(start))
		peer.quiet()
		peer.send("END Win:[x] x:3 me:1")
		peer.expect("CLOSE")
		r := <-done
		if r.err != nil || r.out.Color != othello.White {
			t.Fatalf("Run = %+v, %v", r.out, r.err)
		}
	})
}

// TestOthelloClientPass: two TURNs of our colour in a row (the opponent
// passed) each get one move, from the BOARD before them.
func TestClientPass(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p1 := othello.TUS.Start
		m1 := p1.AppendLegalMoves(nil)[0]
		after := p1.PlayUnchecked(m1)
		p2 := mustPosition(t, after.Black(), after.White(), othello.Black) // white passes
		if p2.LegalSquares() == 0 {
			t.Fatal("test position: black has no move")
		}
		m2 := p2.AppendLegalMoves(nil)[0]

		calls := make(chan othello.Position, 4)
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, firstMove(calls))
		peer.send("START 1")
		peer.sendRaw(boardLine(p1))
		peer.send("TURN 1")
		peer.expect(putLine(m1))
		peer.sendRaw(boardLine(after))
		peer.send("TURN 1")
		peer.expect(putLine(m2))
		peer.quiet()
		peer.send("END Win:[BLACK] BLACK:9 WHITE:0")
		peer.expect("CLOSE")
		if r := <-done; r.err != nil {
			t.Fatal(r.err)
		}
		close(calls)
		var got []othello.Position
		for p := range calls {
			got = append(got, p)
		}
		if len(got) != 2 || got[0] != p1 || got[1] != p2 {
			t.Errorf("Play got %v, want %v and %v", got, p1, p2)
		}
	})
}

// TestOthelloClientError2: after ERROR 2 the client asks for BOARD and
// decides again from the reply, at most twice per TURN; a new TURN gives a
// fresh budget.
func TestClientError2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.TUS.Start
		// The server "knows" another board: the reply to BOARD.
		other := othello.Standard.Start
		calls := make(chan othello.Position, 8)
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, firstMove(calls))
		peer.send("START 1")
		peer.sendRaw(boardLine(start))
		peer.send("TURN 1")
		first := putLine(start.AppendLegalMoves(nil)[0])
		again := putLine(other.AppendLegalMoves(nil)[0])
		peer.expect(first)
		peer.send("ERROR 2")
		peer.expect("BOARD")
		peer.quiet() // no move before the reply
		peer.sendRaw(boardLine(other))
		peer.expect(again)
		peer.send("ERROR 2")
		peer.expect("BOARD")
		peer.sendRaw(boardLine(other))
		peer.expect(again)
		peer.send("ERROR 2") // the third refusal: give up on this TURN
		peer.quiet()
		peer.sendRaw(boardLine(other))
		peer.quiet()
		peer.send("TURN 1")
		peer.expect(again)
		peer.send("ERROR 2")
		peer.expect("BOARD")
		peer.send("END Draw BLACK:2 WHITE:2")
		peer.expect("CLOSE")
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		if n := len(calls); n != 4 {
			t.Errorf("Play called %d times, want 4", n)
		}
		<-calls
		if p := <-calls; p != other {
			t.Errorf("after ERROR 2, Play got %s, want the BOARD reply %s", p, other)
		}
	})
}

// TestOthelloClientErrors: ERROR 3 waits for the next TURN; ERROR 1 and 4
// and a stray ERROR 2 change nothing.
func TestClientErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.TUS.Start
		move := putLine(start.AppendLegalMoves(nil)[0])
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, firstMove(nil))
		peer.send("ERROR 1", "START 1")
		peer.sendRaw(boardLine(start))
		peer.send("ERROR 2", "ERROR 4")
		peer.quiet()
		peer.send("TURN 1")
		peer.expect(move)
		peer.send("ERROR 3")
		peer.quiet()
		peer.sendRaw(boardLine(start))
		peer.quiet()
		peer.send("TURN 1")
		peer.expect(move)
		peer.send("ERROR 1")
		peer.quiet()
		peer.send("ERROR 4")
		peer.quiet()
		peer.send("TURN 1")
		peer.expect(move)
		peer.send("END Win:[BLACK] BLACK:4 WHITE:1")
		peer.trySend("ERROR 4", "TURN 1")
		peer.expect("CLOSE")
		if r := <-done; r.err != nil {
			t.Fatal(r.err)
		}
		if rest := peer.rest(); len(rest) != 0 {
			t.Errorf("after END the client sent %q", rest)
		}
	})
}

// TestOthelloClientTolerant: CRLF, missing and extra trailing spaces, SAY,
// empty, unknown and malformed lines are all survived.
func TestClientTolerant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.TUS.Start
		board := strings.TrimSuffix(boardLine(start), " \n")
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, firstMove(nil))
		peer.sendRaw("\r\nSAY alice: hello there\r\nHELLO world\nSTART 1 \r\n")
		peer.sendRaw("TURN 7\nBOARD 1 2 3\nERROR x\n \n")
		peer.sendRaw(board + "\r\n") // no trailing space
		peer.sendRaw("TURN 1  \t\r\n")
		peer.expect(putLine(start.AppendLegalMoves(nil)[0]))
		peer.sendRaw("END Win:[BLACK] BLACK:4 WHITE:1 \r\n")
		peer.expect("CLOSE")
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.out.End.Winner != "BLACK" || r.out.Result.Winner != othello.Black || r.out.Result.Black != 4 {
			t.Errorf("outcome %+v", r.out)
		}
	})
}

// TestOthelloClientMalformedBoard: after a BOARD the client cannot read, it
// asks for the board before it moves.
func TestClientMalformedBoard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.TUS.Start
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, firstMove(nil))
		peer.send("START 1")
		peer.sendRaw(boardLine(start))
		peer.send("BOARD 0 0 9", "TURN 1")
		peer.expect("BOARD")
		peer.sendRaw(boardLine(start))
		peer.expect(putLine(start.AppendLegalMoves(nil)[0]))
		peer.send("END")
		peer.expect("CLOSE")
		if r := <-done; r.err != nil {
			t.Fatal(r.err)
		}
	})
}

// TestOthelloClientNoMove: our TURN in a position where we cannot place a
// disc: the client asks for BOARD twice and then waits, never asking the
// player.
func TestClientNoMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stuck := mustPosition(t, othello.A1.Bit(), othello.H8.Bit(), othello.Black)
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, neverCalled(t))
		peer.send("START 1")
		peer.send("TURN 1") // no BOARD yet
		peer.expect("BOARD")
		peer.sendRaw(boardLine(stuck))
		peer.expect("BOARD")
		peer.sendRaw(boardLine(stuck))
		peer.quiet()
		peer.send("END Draw BLACK:1 WHITE:1")
		peer.expect("CLOSE")
		if r := <-done; r.err != nil {
			t.Fatal(r.err)
		}
	})
}

// --- END and CLOSE -----------------------------------------------------------

func TestClientEnd(t *testing.T) {
	full, err := othello.ParsePosition(strings.Repeat("X", 40) + strings.Repeat("O", 24) + " X")
	if err != nil {
		t.Fatal(err)
	}
	early := othello.TUS.Start // a game stopped at once
	res := func(reason othello.Reason, w othello.Color, b, wh int) othello.Result {
		return othello.Result{Reason: reason, Winner: w, Black: b, White: wh}
	}
	draw := func(b, w int) othello.Result {
		return othello.Result{Reason: othello.Discs, Draw: true, Black: b, White: w}
	}
	for _, tt := range []struct {
		name  string
		nick  string
		me    othello.Color
		board othello.Position
		close bool // CLOSE before END
		end   string
		want  othello.Result
	}{
		{"black wins, black first", "alice", othello.Black, full, false, "Win:[alice] alice:40 bob:24", res(othello.Discs, othello.Black, 40, 24)},
		{"as white", "bob", othello.White, full, false, "Win:[alice] alice:40 bob:24", res(othello.Discs, othello.Black, 40, 24)},
		{"winner first, white won", "alice", othello.Black, early, false, "Win:[bob] bob:3 alice:1", res(othello.Timeout, othello.White, 1, 3)},
		{"winner first, we are white", "bob", othello.White, early, false, "Win:[bob] bob:3 alice:1", res(othello.Timeout, othello.White, 1, 3)},
		{"forfeit against the counts", "alice", othello.Black, early, false, "Win:[bob] alice:30 bob:2", res(othello.Timeout, othello.White, 30, 2)},
		{"draw", "alice", othello.Black, full, false, "Draw alice:32 bob:32", draw(32, 32)},
		{"draw, lower case with colon", "alice", othello.White, full, false, "draw: bob:32 alice:32", draw(32, 32)},
		{"unknown names: first pair black, counts decide", "alice", othello.White, full, false, "Win:[x] y:30 z:34", res(othello.Discs, othello.White, 30, 34)},
		{"duplicate names", "same", othello.White, full, false, "Win:[same] same:20 same:44", res(othello.Discs, othello.White, 20, 44)},
		{"default names", "", othello.White, full, false, "Win:[BLACK] BLACK:40 WHITE:24", res(othello.Discs, othello.Black, 40, 24)},
		{"default names, white first", "", othello.White, full, false, "Win:[WHITE] WHITE:40 BLACK:24", res(othello.Discs, othello.White, 24, 40)},
		{"no counts, we won", "alice", othello.White, early, false, "Win:[alice]", res(othello.Timeout, othello.White, 2, 2)},
		{"no counts, they won", "alice", othello.White, full, false, "Win:[bob]", res(othello.Discs, othello.Black, 40, 24)},
		{"no keyword: counts", "alice", othello.Black, full, false, "alice:10 bob:54", res(othello.Discs, othello.White, 10, 54)},
		{"garbage: the board decides", "alice", othello.Black, full, false, "\x00 ::: Win:[ [] :x 12", res(othello.Discs, othello.Black, 40, 24)},
		{"empty", "alice", othello.Black, early, false, "", draw(2, 2)},
		{"one pair only", "alice", othello.Black, full, false, "Win:[alice] alice:40", res(othello.Discs, othello.Black, 40, 24)},
		{"disconnect: END after CLOSE", "alice", othello.Black, early, true, "Win:[alice] alice:2 bob:2", res(othello.Disconnect, othello.Black, 2, 2)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				peer, conn := newClientPeer(t)
				done := runClient(t.Context(), &tus.Client{Nick: tt.nick}, conn, neverCalled(t))
				if tt.nick != "" {
					peer.expect("NICK " + tt.nick)
				}
				if tt.me == othello.Black {
					peer.send("START 1")
				} else {
					peer.send("START -1")
				}
				peer.sendRaw(boardLine(tt.board))
				if tt.close {
					peer.send("CLOSE")
				}
				peer.send("END " + tt.end)
				peer.expect("CLOSE")
				r := <-done
				if r.err != nil {
					t.Fatal(r.err)
				}
				if r.out.Result != tt.want {
					t.Errorf("Result = %v %+v, want %v %+v", r.out.Result, r.out.Result, tt.want, tt.want)
				}
				if !r.out.Ended || r.out.End.Text != tt.end || r.out.OpponentLeft != tt.close {
					t.Errorf("outcome %+v", r.out)
				}
			})
		})
	}
}

// TestOthelloClientCloseBeforeEnd: CLOSE from the server stops the player;
// the client waits a second for END and then reports that the opponent
// left, or reports END if it comes, or stops at once when the server hangs up.
func TestClientCloseBeforeEnd(t *testing.T) {
	start := othello.TUS.Start
	// thinking reports that it started, then when its ctx was cancelled.
	thinking := func(started chan<- time.Time) othello.Player {
		return othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
			started <- time.Now()
			<-ctx.Done()
			started <- time.Now()
			return p.AppendLegalMoves(nil)[0], nil // a stale answer: must not be sent
		})
	}
	t.Run("no END", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			started := make(chan time.Time, 2)
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, thinking(started))
			peer.send("START -1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.sendRaw(boardLine(start.PlayUnchecked(othello.Place(othello.E3))))
			peer.send("TURN -1")
			<-started
			t0 := time.Now()
			peer.send("CLOSE")
			r := <-done
			if stopped := <-started; stopped != t0 {
				t.Errorf("player stopped %v after CLOSE, want at once", stopped.Sub(t0))
			}
			if waited := time.Since(t0); waited != time.Second {
				t.Errorf("waited %v for END, want 1s", waited)
			}
			if r.err != nil || !r.out.OpponentLeft || r.out.Ended {
				t.Fatalf("Run = %+v, %v", r.out, r.err)
			}
			want := othello.Result{Reason: othello.Disconnect, Winner: othello.White, Black: 4, White: 1}
			if r.out.Result != want {
				t.Errorf("Result = %v, want %v", r.out.Result, want)
			}
			if rest := peer.rest(); len(rest) != 0 {
				t.Errorf("client sent %q", rest)
			}
		})
	})
	t.Run("END within the second", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			started := make(chan time.Time, 2)
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, thinking(started))
			peer.send("START 1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			<-started
			peer.send("CLOSE")
			peer.quiet()
			if len(started) != 1 {
				t.Error("the player was not stopped by CLOSE")
			}
			time.Sleep(999 * time.Millisecond) // the bubble's clock: no real wait
			peer.send("END Win:[BLACK] BLACK:2 WHITE:2")
			peer.expect("CLOSE")
			r := <-done
			if r.err != nil || !r.out.OpponentLeft || !r.out.Ended || r.out.Result.Reason != othello.Disconnect || r.out.Result.Winner != othello.Black {
				t.Fatalf("Run = %+v, %v", r.out, r.err)
			}
		})
	})
	t.Run("server hangs up", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, neverCalled(t))
			peer.send("START 1", "CLOSE", "TURN 1")
			peer.conn.Close()
			t0 := time.Now()
			r := <-done
			if r.err != nil || !r.out.OpponentLeft || time.Since(t0) != 0 {
				t.Fatalf("Run = %+v, %v after %v", r.out, r.err, time.Since(t0))
			}
		})
	})
}

// TestOthelloClientLostConnection: EOF before END, and an over-long line,
// are errors.
func TestClientLostConnection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, neverCalled(t))
		peer.send("START -1")
		peer.conn.Close()
		r := <-done
		if !errors.Is(r.err, io.ErrUnexpectedEOF) || !r.out.Started || r.out.Color != othello.White {
			t.Errorf("Run = %+v, %v; want ErrUnexpectedEOF", r.out, r.err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{}, conn, neverCalled(t))
		go peer.conn.Write([]byte("SAY " + strings.Repeat("x", tus.MaxLine) + "\n"))
		r := <-done
		if r.err == nil || !strings.Contains(r.err.Error(), "line over") {
			t.Errorf("Run error %v, want a line too long", r.err)
		}
	})
}

// --- the player --------------------------------------------------------------

// TestOthelloClientPlayerFails: an error or an illegal move from the player
// ends the game: CLOSE, no PUT, and an *tus.PlayerError.
func TestClientPlayerFails(t *testing.T) {
	start := othello.TUS.Start
	boom := errors.New("boom")
	for _, tt := range []struct {
		name string
		move othello.Move
		err  error
		want error
	}{
		{"error", othello.NoMove, boom, boom},
		{"error with a move", othello.Place(othello.E3), boom, boom},
		{"occupied", othello.Place(othello.D4), nil, othello.ErrIllegalMove},
		{"flips nothing", othello.Place(othello.A1), nil, othello.ErrIllegalMove},
		{"pass", othello.Pass, nil, othello.ErrIllegalMove},
		{"no move", othello.NoMove, nil, othello.ErrIllegalMove},
		{"not a move", othello.Move(200), nil, othello.ErrIllegalMove},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				player := othello.PlayerFunc(func(context.Context, othello.Position) (othello.Move, error) {
					return tt.move, tt.err
				})
				peer, conn := newClientPeer(t)
				done := runClient(t.Context(), &tus.Client{}, conn, player)
				peer.send("START 1")
				peer.sendRaw(boardLine(start))
				peer.send("TURN 1")
				peer.expect("CLOSE")
				r := <-done
				var pe *tus.PlayerError
				if !errors.Is(r.err, tt.want) || !errors.As(r.err, &pe) || pe.Position != start || pe.Move != tt.move {
					t.Fatalf("Run error %v, want an *PlayerError wrapping %v", r.err, tt.want)
				}
				if pe.Error() == "" || r.out.Ended {
					t.Errorf("error %q, outcome %+v", pe, r.out)
				}
				if rest := peer.rest(); len(rest) != 0 {
					t.Errorf("client sent %q after CLOSE", rest)
				}
			})
		})
	}
}

// TestOthelloClientMoveTime: the player's ctx has a deadline MoveTime after
// the TURN arrived, also when it is asked again after ERROR 2; a late answer
// is still sent, since the server's limit is what counts.
func TestClientMoveTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := othello.TUS.Start
		deadlines := make(chan time.Time, 4)
		player := othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
			d, ok := ctx.Deadline()
			if !ok {
				t.Error("no deadline")
			}
			deadlines <- d
			<-ctx.Done()
			time.Sleep(time.Second) // late
			return p.AppendLegalMoves(nil)[0], nil
		})
		peer, conn := newClientPeer(t)
		done := runClient(t.Context(), &tus.Client{MoveTime: 8 * time.Second}, conn, player)
		peer.send("START 1")
		peer.sendRaw(boardLine(start))
		time.Sleep(time.Minute)
		turnAt := time.Now()
		peer.send("TURN 1")
		move := putLine(start.AppendLegalMoves(nil)[0])
		peer.expect(move)
		if waited := time.Since(turnAt); waited != 9*time.Second {
			t.Errorf("PUT after %v, want 9s", waited)
		}
		peer.send("ERROR 2")
		peer.expect("BOARD")
		peer.sendRaw(boardLine(start))
		peer.expect(move)
		peer.send("END Win:[BLACK] BLACK:4 WHITE:1")
		peer.expect("CLOSE")
		if r := <-done; r.err != nil {
			t.Fatal(r.err)
		}
		for range 2 {
			if d := <-deadlines; !d.Equal(turnAt.Add(8 * time.Second)) {
				t.Errorf("deadline %v after TURN, want 8s", d.Sub(turnAt))
			}
		}
	})
}

// TestOthelloClientStale: an answer to a question that a later line made
// stale is never sent, and the player is never called twice at once.
func TestClientStale(t *testing.T) {
	start := othello.TUS.Start
	legal := start.AppendLegalMoves(nil)
	// slowThenFast blocks its first call until cancelled or released, then
	// answers legal[0] (stale); later calls answer legal[1] at once.
	slowThenFast := func(t *testing.T, release <-chan struct{}) othello.Player {
		calls, busy := 0, false
		return othello.PlayerFunc(func(ctx context.Context, _ othello.Position) (othello.Move, error) {
			if busy {
				t.Error("Play called while another call runs")
			}
			busy = true
			defer func() { busy = false }()
			calls++
			if calls == 1 {
				select {
				case <-ctx.Done():
				case <-release:
				}
				return legal[0], nil
			}
			return legal[1], nil
		})
	}
	t.Run("TURN again", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, slowThenFast(t, nil))
			peer.send("START 1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.quiet()
			peer.send("TURN 1")
			peer.expect(putLine(legal[1]))
			peer.quiet()
			peer.send("END")
			peer.expect("CLOSE")
			if r := <-done; r.err != nil {
				t.Fatal(r.err)
			}
		})
	})
	t.Run("BOARD changed", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, slowThenFast(t, nil))
			peer.send("START 1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.quiet()
			peer.sendRaw(boardLine(start)) // the same board: keep thinking
			peer.quiet()
			peer.sendRaw(boardLine(othello.Standard.Start))
			peer.quiet() // the answer is dropped and nothing asks again
			peer.send("TURN -1")
			peer.quiet()
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.expect(putLine(legal[1]))
			peer.send("END")
			peer.expect("CLOSE")
			if r := <-done; r.err != nil {
				t.Fatal(r.err)
			}
		})
	})
	t.Run("ERROR 3 while thinking", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			peer, conn := newClientPeer(t)
			release := make(chan struct{})
			done := runClient(t.Context(), &tus.Client{}, conn, slowThenFast(t, release))
			peer.send("START 1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.quiet()
			peer.send("ERROR 3") // not our turn after all: wait for TURN
			close(release)
			peer.quiet()
			peer.send("TURN 1")
			peer.expect(putLine(legal[1]))
			peer.send("END")
			peer.expect("CLOSE")
			if r := <-done; r.err != nil {
				t.Fatal(r.err)
			}
		})
	})
	t.Run("END while thinking", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			peer, conn := newClientPeer(t)
			done := runClient(t.Context(), &tus.Client{}, conn, slowThenFast(t, nil))
			peer.send("START 1")
			peer.sendRaw(boardLine(start))
			peer.send("TURN 1")
			peer.quiet()
			peer.send("END Win:[WHITE] BLACK:2 WHITE:2")
			peer.expect("CLOSE")
			r := <-done
			if r.err != nil || r.out.Result.Winner != othello.White || r.out.Result.Reason != othello.Timeout {
				t.Fatalf("Run = %+v, %v", r.out, r.err)
			}
			if rest := peer.rest(); len(rest) != 0 {
				t.Errorf("client sent %q after END", rest)
			}
		})
	})
}

// --- context, setup and dialling --------------------------------------------

// TestOthelloClientCancel: cancelling ctx stops Run while it reads and while
// the player thinks, closes the connection, and returns ctx's error.
func TestClientCancel(t *testing.T) {
	for _, thinking := range []bool{false, true} {
		t.Run(fmt.Sprint("thinking=", thinking), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				stopped := make(chan error, 1)
				player := othello.PlayerFunc(func(ctx context.Context, _ othello.Position) (othello.Move, error) {
					<-ctx.Done()
					stopped <- ctx.Err()
					return othello.NoMove, ctx.Err()
				})
				ctx, cancel := context.WithCancel(t.Context())
				peer, conn := newClientPeer(t)
				done := runClient(ctx, &tus.Client{}, conn, player)
				peer.send("START 1")
				peer.sendRaw(boardLine(othello.TUS.Start))
				if thinking {
					peer.send("TURN 1")
				}
				peer.quiet()
				cancel()
				r := <-done
				if !errors.Is(r.err, context.Canceled) {
					t.Errorf("Run error %v, want context.Canceled", r.err)
				}
				if thinking && !errors.Is(<-stopped, context.Canceled) {
					t.Error("the player's ctx was not cancelled")
				}
				if rest := peer.rest(); len(rest) != 0 { // and the pipe is closed
					t.Errorf("client sent %q", rest)
				}
			})
		})
	}
}

// TestOthelloClientSetup: a bad Nick or a nil player fails before any I/O.
func TestClientSetup(t *testing.T) {
	for _, tt := range []struct {
		c tus.Client
		p othello.Player
	}{
		{tus.Client{Nick: "two words"}, firstMove(nil)},
		{tus.Client{Nick: "a\nPUT 4 2"}, firstMove(nil)},
		{tus.Client{Nick: "x:y"}, firstMove(nil)},
		{tus.Client{MoveTime: -time.Second}, firstMove(nil)},
		{tus.Client{}, nil},
	} {
		synctest.Test(t, func(t *testing.T) {
			// A Run that started playing would block; the bubble's clock
			// ends it.
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			srv, cli := net.Pipe()
			defer srv.Close()
			go io.Copy(io.Discard, srv)
			if _, err := tt.c.Run(ctx, cli, tt.p); err == nil || ctx.Err() != nil {
				t.Errorf("Run with %+v, %v: %v, want a setup error", tt.c, tt.p, err)
			}
			if _, err := cli.Write([]byte{'\n'}); !errors.Is(err, io.ErrClosedPipe) {
				t.Errorf("Run left the connection open (%v)", err)
			}
		})
		if _, err := tt.c.Dial(t.Context(), "127.0.0.1:1", tt.p); err == nil || strings.Contains(err.Error(), "dial") {
			t.Errorf("Dial with %+v: %v, want a setup error before dialling", tt.c, err)
		}
	}
}

// TestOthelloClientNoCloser: Run works over a bare io.ReadWriter.
func TestClientNoCloser(t *testing.T) {
	start := othello.TUS.Start
	in := strings.NewReader("START 1\n" + boardLine(start) + "TURN 1\nEND Win:[me] me:4 you:1\n")
	var out strings.Builder
	rw := struct {
		io.Reader
		io.Writer
	}{in, &out}
	r, err := (&tus.Client{Nick: "me"}).Run(t.Context(), rw, firstMove(nil))
	// The END may be read before the answer: then no PUT is sent.
	if err != nil || r.Result.Winner != othello.Black || r.Result.Black != 4 {
		t.Fatalf("Run = %+v, %v", r, err)
	}
	if got := out.String(); got != "NICK me\nCLOSE\n" && got != "NICK me\n"+putLine(start.AppendLegalMoves(nil)[0])+"\nCLOSE\n" {
		t.Errorf("client wrote %q", got)
	}
}

// TestDialOthello plays a short game over TCP on 127.0.0.1, and checks that
// cancelling ctx interrupts a real socket.
func TestDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	defer ln.Close()
	start := othello.TUS.Start
	move := start.AppendLegalMoves(nil)[0]
	after := start.PlayUnchecked(move)
	served := make(chan []string, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			served <- nil
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Minute)) // a broken client fails, never hangs
		io.WriteString(conn, "START 1\n"+boardLine(start)+"TURN 1\n")
		var got []string
		sc := bufio.NewScanner(conn)
		for sc.Scan() {
			got = append(got, sc.Text())
			if strings.HasPrefix(sc.Text(), "PUT") {
				io.WriteString(conn, boardLine(after)+"TURN -1\nEND Win:[BLACK] BLACK:4 WHITE:1\n")
			}
		}
		served <- got
	}()
	out, err := tus.Dial(t.Context(), ln.Addr().String(), firstMove(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := <-served, []string{putLine(move), "CLOSE"}; !cmp.Equal(got, want) {
		t.Errorf("server got %q, want %q", got, want)
	}
	if out.Final != mustPosition(t, after.Black(), after.White(), othello.White) || out.Result.String() != "black wins 4-1 (timeout)" {
		t.Errorf("outcome %+v", out)
	}

	// A server that accepts and says nothing: cancel must still end Dial.
	ctx, cancel := context.WithCancel(t.Context())
	accepted := make(chan net.Conn, 1)
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			accepted <- conn
		}
		close(accepted)
	}()
	done := make(chan error, 1)
	go func() {
		_, err := (&tus.Client{Nick: "me"}).Dial(ctx, ln.Addr().String(), firstMove(nil))
		done <- err
	}()
	conn := <-accepted
	if conn == nil {
		t.Fatal("no connection")
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute))
	if l, err := bufio.NewReader(conn).ReadString('\n'); l != "NICK me\n" {
		cancel()
		<-done
		t.Fatalf("server read %q, %v", l, err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Dial error %v, want context.Canceled", err)
	}
}

// TestOthelloClientAgainstHost: pairs of clients with random players play
// whole games on our tus.Host over 127.0.0.1; each client must report the
// host's result and final position.
func TestClientAgainstHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	const games = 4
	records := make(chan tus.GameRecord, games)
	host := &tus.Host{Pairing: tus.PairFIFO, OnGameEnd: func(r tus.GameRecord) { records <- r }}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hung game fails, never hangs
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- host.Serve(ctx, ln) }()

	type named struct {
		nick string
		clientResult
	}
	outs := make(chan named, 2*games)
	for i := range 2 * games {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		player := othello.PlayerFunc(func(_ context.Context, p othello.Position) (othello.Move, error) {
			moves := p.AppendLegalMoves(nil)
			return moves[rng.IntN(len(moves))], nil
		})
		c := &tus.Client{Nick: fmt.Sprint("p", i), MoveTime: 8 * time.Second}
		go func() {
			out, err := c.Dial(ctx, ln.Addr().String(), player)
			outs <- named{c.Nick, clientResult{out, err}}
		}()
	}
	byNick := map[string]tus.GameRecord{}
	for range games {
		r := <-records
		byNick[r.Black], byNick[r.White] = r, r
	}
	for range 2 * games {
		r := <-outs
		if r.err != nil {
			t.Fatal(r.err)
		}
		rec, ok := byNick[r.nick]
		if !ok || (rec.Black == r.nick) != (r.out.Color == othello.Black) || rec.End != r.out.End.Text {
			t.Fatalf("%s: outcome %+v, game %+v", r.nick, r.out, rec)
		}
		final := rec.Start
		for _, m := range rec.Moves {
			final = final.PlayUnchecked(m)
		}
		if r.out.Result != rec.Result || r.out.Final.Black() != final.Black() || r.out.Final.White() != final.White() {
			t.Errorf("%s: outcome %+v, want %v in %s", r.nick, r.out, rec.Result, final)
		}
	}
	cancel()
	if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Serve: %v", err)
	}
}

// TestClientStatus: the player's ctx carries a timer.Status: the
// MoveTime as a per-move cap the server did not tell, or no limit
// without it; our side; Start at the TURN; Deadline the ctx's.
func TestClientStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		moveTime time.Duration
		color    string
		side     timer.Side
		control  timer.Control
	}{
		{"MoveTime", 8 * time.Second, "1", timer.First, timer.PerMove(8 * time.Second)},
		{"NoMoveTime", 0, "-1", timer.Second, timer.Control{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				type seen struct {
					st       timer.Status
					ok       bool
					deadline time.Time
					now      time.Time
					move     othello.Move
				}
				calls := make(chan seen, 1)
				player := othello.PlayerFunc(func(ctx context.Context, p othello.Position) (othello.Move, error) {
					st, ok := timer.StatusFrom(ctx)
					d, _ := ctx.Deadline()
					m := p.AppendLegalMoves(nil)[0]
					calls <- seen{st, ok, d, time.Now(), m}
					return m, nil
				})
				peer, conn := newClientPeer(t)
				done := runClient(t.Context(), &tus.Client{MoveTime: tc.moveTime}, conn, player)
				start := othello.TUS.Start
				peer.send("START " + tc.color)
				peer.sendRaw(boardLine(start))
				time.Sleep(time.Minute)
				turnAt := time.Now()
				peer.send("TURN " + tc.color)
				c := <-calls
				peer.expect(putLine(c.move))
				peer.send("END Win:[x] x:3 y:1")
				peer.expect("CLOSE")
				if r := <-done; r.err != nil {
					t.Fatal(r.err)
				}
				st := c.st
				switch {
				case !c.ok:
					t.Fatal("no Status on the ctx")
				case st.Control != tc.control || st.ControlTold:
					t.Errorf("Control %v told %v, want %v untold", st.Control, st.ControlTold, tc.control)
				case st.Own.Told || st.Opponent.Told:
					t.Errorf("clocks told: %+v %+v", st.Own, st.Opponent)
				case st.Side != tc.side:
					t.Errorf("Side %v, want %v", st.Side, tc.side)
				case !st.Start.Equal(turnAt) || st.Start.After(c.now):
					t.Errorf("Start %v, want the TURN's %v", st.Start, turnAt)
				case !st.Deadline.Equal(c.deadline):
					t.Errorf("Deadline %v, ctx's %v", st.Deadline, c.deadline)
				case tc.moveTime > 0 && !st.Deadline.Equal(turnAt.Add(tc.moveTime)):
					t.Errorf("Deadline %v after TURN, want %v", st.Deadline.Sub(turnAt), tc.moveTime)
				}
			})
		})
	}
}
