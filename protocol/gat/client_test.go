package gat

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// The client tests run the client against a scripted server on the far end
// of a net.Pipe inside a synctest bubble: nothing sleeps, a deadlock fails
// fast, deadlines run on the bubble's clock, and synctest.Test fails if a
// goroutine outlives the test.

// jgPeer is a scripted server on the server end of a net.Pipe.
type jgPeer struct {
	t    *testing.T
	conn net.Conn
	got  chan string // the client's lines, CRLF checked and removed; closed at EOF
}

func newJGPeer(t *testing.T) (*jgPeer, net.Conn) {
	t.Helper()
	srv, cli := net.Pipe()
	p := &jgPeer{t: t, conn: srv, got: make(chan string, 1024)}
	go func() {
		defer close(p.got)
		br := bufio.NewReader(srv)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				if line != "" {
					p.got <- "unterminated: " + line
				}
				return
			}
			if !strings.HasSuffix(line, "\r\n") {
				p.got <- "no CRLF: " + line
				continue
			}
			p.got <- strings.TrimSuffix(line, "\r\n")
		}
	}()
	t.Cleanup(func() { srv.Close() })
	return p, cli
}

// write writes s as it is, in one write; errors are ignored (the client may
// have gone).
func (p *jgPeer) write(s string) { io.WriteString(p.conn, s) }

// next returns the client's next line; false once it closed.
func (p *jgPeer) next() (string, bool) {
	select {
	case l, ok := <-p.got:
		return l, ok
	case <-time.After(time.Hour):
		p.t.Fatal("the client is stuck: no line and no close")
		return "", false
	}
}

// expect checks the client's next line.
func (p *jgPeer) expect(want string) {
	p.t.Helper()
	if got, ok := p.next(); got != want || !ok {
		p.t.Fatalf("client sent %q (open %v), want %q", got, ok, want)
	}
}

// closed checks that the client closes without another line.
func (p *jgPeer) closed() {
	p.t.Helper()
	if got, ok := p.next(); ok {
		p.t.Fatalf("client sent %q, want it closed", got)
	}
}

// quiet checks that the client has nothing to say for now.
func (p *jgPeer) quiet() {
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

type jgRun struct {
	out Outcome
	err error
}

func jgRunClient(ctx context.Context, c *Client, conn net.Conn, p geister.Player) <-chan jgRun {
	done := make(chan jgRun, 1)
	go func() {
		out, err := c.Run(ctx, conn, p)
		done <- jgRun{out, err}
	}()
	return done
}

// jgScripted is a player that sets reds and plays the given moves in order,
// recording the views it was shown.
type jgScripted struct {
	mu    sync.Mutex
	reds  geister.Reds
	moves []geister.Move
	views []geister.View
}

func (s *jgScripted) Setup(context.Context) (geister.Reds, error) { return s.reds, nil }

func (s *jgScripted) Play(_ context.Context, v geister.View) (geister.Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.views = append(s.views, v)
	if len(s.moves) == 0 {
		return geister.NoMove, errors.New("no more moves")
	}
	m := s.moves[0]
	s.moves = s.moves[1:]
	return m, nil
}

// TestClientGolden runs our client against the server side of the
// captures, for every side whose client sent only what ours would (its own
// legal moves, one per MOV?): the server's reads are written as they were,
// coalesced messages included, and the client's lines must be the
// capture's, byte for byte, up to the first result. The client must then
// close without another line (D5 tails and all), and report the result.
func TestClientGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sides []int
	}{
		{"random-game-1.txt", []int{0, 1}},
		{"random-game-2.txt", []int{0, 1}},
		{"scenario-escape-west.txt", []int{0, 1}},
		{"scenario-escape-second-player.txt", []int{0, 1}},
		{"scenario-draw-300-plies.txt", []int{0, 1}},
		{"scenario-bug-spurious-timeout-long-game.txt", []int{0, 1}},
		{"scenario-bug-spurious-timeout.txt", []int{1}},
		{"scenario-no-ng-terminate-retry-then-timeout.txt", []int{1}},
		{"scenario-illegal-move-ng-terminate.txt", []int{1}},
		{"scenario-bad-direction-ng-terminate.txt", []int{1}},
		{"scenario-red-escape-attempt-ng.txt", []int{1}},
		{"scenario-escape-north-badset-wrongturn.txt", nil},
	} {
		rows := jgRead(t, tc.name)
		for _, side := range tc.sides {
			t.Run(fmt.Sprintf("%s/P%d", strings.TrimSuffix(tc.name, ".txt"), side), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { jgClientGolden(t, rows, side) })
			})
		}
	}
}

func jgClientGolden(t *testing.T, all []jgRow, side int) {
	var rows []jgRow
	player := &jgScripted{}
	var sent []string // the client's lines in the capture, up to the result
	var boards []string
	var result Event
	ended := false
	for _, r := range all {
		if r.side != side {
			continue
		}
		rows = append(rows, r)
		for _, m := range jgMessages(r.data) {
			switch {
			case ended && r.dir == "C>S":
				// A move answering a MOV? that came with the result: the
				// client may send it or not.
				if cmd, err := ParseCommand(m); err == nil && cmd.Kind == Move {
					player.moves = append(player.moves, cmd.Move)
				}
			case ended:
			case r.dir == "C>S":
				cmd, err := ParseCommand(m)
				jgMust(t, err)
				if cmd.Kind == Set {
					player.reds = cmd.Reds
				} else {
					player.moves = append(player.moves, cmd.Move)
				}
				// Ours writes whole direction words ("N" was sent as
				// "NORTH" by the scripted clients).
				sent = append(sent, strings.TrimSuffix(string(AppendCommand(nil, cmd)), "\r\n"))
			case r.dir == "S>C":
				e, err := ParseEvent(m)
				jgMust(t, err)
				switch {
				case e.Kind == MoveRequest:
					boards = append(boards, e.Board.String())
				case e.Kind.IsResult():
					ended, result = true, e
				}
			}
		}
	}
	peer, conn := newJGPeer(t)
	done := jgRunClient(t.Context(), &Client{}, conn, player)
	me := geister.Color(side)
	var got []string
	var extra []string // what the capture's client sent after the result
	ended = false
	for _, r := range rows {
		switch {
		case r.dir == "S>C" && !ended:
			peer.write(r.data)
			for _, m := range jgMessages(r.data) {
				if e, err := ParseEvent(m); err == nil && e.Kind.IsResult() {
					ended = true
				}
			}
		case r.dir == "S>C":
			peer.write(r.data) // bogus results: ignored, or the pipe is closed
		case r.dir == "C>S" && !ended:
			for range jgMessages(r.data) {
				l, ok := peer.next()
				if !ok {
					t.Fatalf("client closed after %q", got)
				}
				got = append(got, l)
			}
		case r.dir == "C>S":
			extra = append(extra, jgMessages(r.data)...)
		}
	}
	// After the result: nothing, or the answer to a MOV? that came with
	// it (scenario-bug-spurious-timeout-long-game), then the close.
	for l, ok := peer.next(); ok; l, ok = peer.next() {
		if len(extra) == 0 || l != jgCanonical(t, extra[0]) {
			t.Fatalf("client sent %q after the result", l)
		}
		extra = extra[1:]
		got = append(got, l)
		sent = append(sent, l)
	}
	if len(boards) == 0 {
		me = geister.Second // never asked to move: taken as the second player
	}
	res := <-done
	if d := cmp.Diff(sent, got); d != "" {
		t.Errorf("client lines differ from the capture's (-capture +ours):\n%s", d)
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	out := res.out
	if !out.Ended || out.End != result || out.Reds != player.reds || (len(boards) > 0) != out.Started {
		t.Errorf("outcome %+v", out)
	}
	if out.Started && out.Color != me {
		t.Errorf("inferred colour %s, want %s", out.Color, me)
	}
	for i, v := range player.views {
		if v.String() != boards[i] || v.Viewer() != me || v.Ply() != 2*i+side {
			t.Errorf("view %d: %s, %s, ply %d; want %s, %s, ply %d", i, v, v.Viewer(), v.Ply(), boards[i], me, 2*i+side)
		}
	}
	want := geister.Result{Winner: me, Reason: geister.TimeOut}
	switch result.Kind {
	case Lost:
		want.Winner = me.Opponent()
	case Draw:
		want = geister.Result{Draw: true, Reason: geister.GamePlyLimitDraw}
	}
	if out.Final.Board(me) != result.Board.String() {
		t.Errorf("Final %s, want the result board %s", out.Final.Board(me), result.Board)
	}
	if r := out.Final.Result(); r.Reason != geister.Unfinished && !want.Draw {
		want.Reason = r.Reason
	}
	if out.Result != want {
		t.Errorf("result %v, want %v", out.Result, want)
	}
}

// jgCanonical is a command as our client writes it.
func jgCanonical(t *testing.T, line string) string {
	cmd, err := ParseCommand(line)
	jgMust(t, err)
	return strings.TrimSuffix(string(AppendCommand(nil, cmd)), "\r\n")
}

// jgStartMOV is the first player's first MOV? with B-E red against E-H.
func jgStartMOV(t *testing.T) (geister.Position, string) {
	p := jgStart(t, "BCDE", "EFGH")
	return p, jgMOV(p) + "\r\n"
}

// jgMoveFirst is a player that plays the first legal move.
var jgMoveFirst = geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
	return v.AppendLegalMoves(nil)[0], nil
})

// TestClientTolerant: what a client must tolerate from a real server.
func TestClientTolerant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		done := jgRunClient(t.Context(), &Client{}, conn, &jgScripted{reds: geister.RedsOf(geister.B, geister.C, geister.D, geister.E)})
		// A message over several writes, LF alone, blank and unknown lines.
		peer.write("SE")
		peer.write("T?\r")
		peer.quiet()
		peer.write("\n\r\n   \r\nHELLO\n")
		peer.expect("SET:BCDE")
		peer.write("OK\n" + "MOV:" + mov[4:]) // OK without its space; MOV: for MOV?
		if l, _ := peer.next(); l != "" {
			t.Fatalf("client answered %q with no moves to play", l)
		}
		res := <-done
		var pe *PlayerError
		if !errors.As(res.err, &pe) || pe.Setup || pe.View != p.View(geister.First) {
			t.Fatalf("Run = %v, want the player's error", res.err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		p, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		done := jgRunClient(t.Context(), &Client{}, conn, jgMoveFirst)
		peer.write("SET?\r\n")
		if l, _ := peer.next(); !strings.HasPrefix(l, "SET:") {
			t.Fatalf("got %q", l)
		}
		peer.write("OK \r\n" + mov)
		peer.expect("MOV:A,NORTH")
		q := jgPlay(t, p, "A,N")
		// An escape acked OKR (D7), trailing spaces, then a result and a
		// bogus second one in the same write.
		peer.write("OKR  \r\n" + "WON:" + q.Board(geister.First) + " \r\nWON:" + q.Board(geister.First) + "\r\nNG \r\n")
		peer.closed()
		res := <-done
		if res.err != nil || res.out.End.Kind != Won || res.out.Result != (geister.Result{Reason: geister.TimeOut, Winner: geister.First}) {
			t.Fatalf("outcome %+v, %v", res.out, res.err)
		}
		if res.out.Last != p.View(geister.First) || res.out.Final != q {
			t.Errorf("Last %v, Final %v", res.out.Last, res.out.Final)
		}
	})
}

// TestClientNG: after NG the client asks its player again for the
// same request, at most twice; NG then LST: is an illegal-move loss.
func TestClientNG(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		calls := 0
		player := geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
			calls++
			if v != p.View(geister.First) {
				t.Errorf("view %s", v)
			}
			return v.AppendLegalMoves(nil)[calls%3], nil
		})
		done := jgRunClient(t.Context(), &Client{}, conn, player)
		peer.write("SET?\r\n")
		peer.next()
		peer.write("NG \r\n") // a refused SET: asked again
		peer.next()
		peer.write("OK \r\n" + mov)
		moves := p.AppendLegalMoves(nil)
		for i := 1; i <= 3; i++ {
			peer.expect("MOV:" + moves[i%3].String())
			peer.write("NG \r\n")
		}
		peer.quiet() // two retries spent: waiting for the server
		peer.write("LST:" + p.Board(geister.First) + "\r\n")
		peer.closed()
		res := <-done
		if res.err != nil || res.out.Result != (geister.Result{Reason: geister.IllegalMove, Winner: geister.Second}) || res.out.Reds.Count() != 4 {
			t.Fatalf("outcome %+v, %v", res.out, res.err)
		}
	})
}

// TestClientStale: a new MOV? or a result while the player thinks
// cancels it; its answer is dropped.
func TestClientStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		started := make(chan geister.View, 4)
		player := geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
			started <- v
			if v.Ply() == 0 {
				<-ctx.Done() // thinks until told to stop
				return v.AppendLegalMoves(nil)[0], ctx.Err()
			}
			return v.AppendLegalMoves(nil)[0], nil
		})
		done := jgRunClient(t.Context(), &Client{}, conn, player)
		peer.write("SET?\r\n")
		peer.next()
		peer.write("OK \r\n" + mov)
		<-started
		// A server without acks asks again: the first answer is stale.
		q := jgPlay(t, jgPlay(t, p, "A,N"), "A,N")
		peer.write(jgMOV(q) + "\r\n")
		if v := <-started; v != q.View(geister.First) {
			t.Errorf("second view %s, ply %d", v, v.Ply())
		}
		peer.expect("MOV:" + q.AppendLegalMoves(nil)[0].String())
		peer.write("DRW:" + q.Board(geister.First) + "\r\n")
		peer.closed()
		res := <-done
		if res.err != nil || res.out.Result != (geister.Result{Reason: geister.GamePlyLimitDraw, Draw: true}) || res.out.Final.Board(geister.First) != q.Board(geister.First) {
			t.Fatalf("outcome %+v, %v", res.out, res.err)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		p, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		returned := make(chan struct{})
		player := geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
			defer close(returned)
			<-ctx.Done()
			return geister.NoMove, ctx.Err()
		})
		done := jgRunClient(t.Context(), &Client{}, conn, player)
		peer.write("SET?\r\n")
		peer.next()
		peer.write("OK \r\n" + mov)
		// A time out while it thinks: MOV? and LST: in one read (D4).
		peer.write("LST:" + p.Board(geister.First) + "\r\n")
		peer.closed()
		res := <-done
		select {
		case <-returned:
		default:
			t.Error("Run returned before Play")
		}
		if res.err != nil || res.out.Result != (geister.Result{Reason: geister.TimeOut, Winner: geister.Second}) {
			t.Fatalf("outcome %+v, %v", res.out, res.err)
		}
	})
}

// TestClientMoveTime: Play's ctx has the deadline MoveTime after
// the MOV? arrived.
func TestClientMoveTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		var deadline, asked time.Time
		player := geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
			deadline, _ = ctx.Deadline()
			<-ctx.Done() // uses all of it, then answers
			return v.AppendLegalMoves(nil)[0], nil
		})
		done := jgRunClient(t.Context(), &Client{MoveTime: 8 * time.Second}, conn, player)
		peer.write("SET?\r\n")
		peer.next()
		peer.write("OK \r\n" + mov)
		asked = time.Now()
		peer.expect("MOV:A,NORTH")
		if want := asked.Add(8 * time.Second); !deadline.Equal(want) || !time.Now().Equal(want) {
			t.Errorf("deadline %v, answered at %v; want %v", deadline, time.Now(), want)
		}
		peer.conn.Close()
		if res := <-done; !errors.Is(res.err, io.ErrUnexpectedEOF) {
			t.Errorf("Run = %v, want ErrUnexpectedEOF", res.err)
		}
	})
}

// TestClientFailures: what ends a game with an error.
func TestClientFailures(t *testing.T) {
	_, mov := jgStartMOV(t)
	illegal := geister.PlayerFunc(func(context.Context, geister.View) (geister.Move, error) {
		return geister.NewMove(geister.A, geister.South), nil
	})
	for _, tc := range []struct {
		name   string
		player geister.Player
		server string
		check  func(error) bool
	}{
		{"setup error", &jgFailingSetup{err: errors.New("no idea")}, "SET?\r\n", func(err error) bool {
			var pe *PlayerError
			return errors.As(err, &pe) && pe.Setup && pe.Err.Error() == "no idea"
		}},
		{"three reds", &jgFailingSetup{reds: geister.RedsOf(geister.A, geister.B, geister.C)}, "SET?\r\n", func(err error) bool {
			var pe *PlayerError
			return errors.As(err, &pe) && pe.Setup
		}},
		{"illegal move", illegal, "SET?\r\nOK \r\n" + mov, func(err error) bool {
			var pe *PlayerError
			return errors.As(err, &pe) && errors.Is(err, errGeisterIllegal) && pe.Move == geister.NewMove(geister.A, geister.South)
		}},
		{"exit", jgMoveFirst, "SET?\r\n/exit\r\n", func(err error) bool { return err != nil && strings.Contains(err.Error(), "/exit") }},
		{"EOF", jgMoveFirst, "", func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }},
		{"huge line", jgMoveFirst, strings.Repeat("x", 5000), func(err error) bool { return err != nil && strings.Contains(err.Error(), "over 1024") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				peer, conn := newJGPeer(t)
				done := jgRunClient(t.Context(), &Client{}, conn, tc.player)
				go func() {
					peer.write(tc.server)
					if tc.name == "EOF" {
						peer.conn.Close()
					}
				}()
				res := <-done
				if !tc.check(res.err) {
					t.Errorf("Run = %v", res.err)
				}
				for range peer.got {
				}
			})
		})
	}
	synctest.Test(t, func(t *testing.T) {
		// ctx ends while the server is silent.
		peer, conn := newJGPeer(t)
		ctx, cancel := context.WithCancel(t.Context())
		done := jgRunClient(ctx, &Client{}, conn, jgMoveFirst)
		peer.quiet()
		cancel()
		if res := <-done; !errors.Is(res.err, context.Canceled) {
			t.Errorf("Run = %v", res.err)
		}
		peer.closed()
	})
	var c Client
	if _, err := c.Run(t.Context(), &bytes.Buffer{}, nil); err == nil {
		t.Error("a nil player")
	}
	if _, err := (&Client{MoveTime: -1}).Dial(t.Context(), "127.0.0.1:1", jgMoveFirst); err == nil {
		t.Error("a negative MoveTime")
	}
	if _, err := Dial(t.Context(), "127.0.0.1:1", jgMoveFirst); err == nil {
		t.Error("dialled a closed port")
	}
}

type jgFailingSetup struct {
	reds geister.Reds
	err  error
}

func (f *jgFailingSetup) Setup(context.Context) (geister.Reds, error) { return f.reds, f.err }
func (f *jgFailingSetup) Play(context.Context, geister.View) (geister.Move, error) {
	return geister.NoMove, errors.New("not called")
}

// TestClientAgainstNTPU: result boards with u (the NTPU platform's) give no
// Final position, and the result's reason comes from the view.
func TestClientAgainstNTPU(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, mov := jgStartMOV(t)
		peer, conn := newJGPeer(t)
		done := jgRunClient(t.Context(), &Client{}, conn, jgMoveFirst)
		peer.write("SET?\r\n")
		peer.next()
		peer.write("OK \r\n" + mov)
		peer.next()
		// The manual's Fig. 16: the receiver's four reds captured.
		peer.write("OK \r\nWON:99r99r99r99r99b99b99b45B99r35u99r99r50u30u11u00u\r\n/exit\r\n")
		peer.closed()
		res := <-done
		if res.err != nil || res.out.Final != (geister.Position{}) || res.out.Result != (geister.Result{Reason: geister.NoRedGhost, Winner: geister.First}) {
			t.Fatalf("outcome %+v, %v", res.out, res.err)
		}
	})
}

// TestClientAgainstHost plays random bots through our host over
// 127.0.0.1, game after game, and checks each side's outcome against the
// host's record.
func TestClientAgainstHost(t *testing.T) {
	h := &Host{Time: mustControl(t, "60s+10s/move")}
	recs := jgRecords(h)
	addrs := jgServe(t, h)
	ctx := jgContext(t)
	for game := range 4 {
		outs := make(chan jgRun, 2)
		for side := range 2 {
			rng := rand.New(rand.NewPCG(uint64(game), uint64(side)))
			bot := geister.PlayerFunc(func(_ context.Context, v geister.View) (geister.Move, error) {
				moves := v.AppendLegalMoves(nil)
				return moves[rng.IntN(len(moves))], nil
			})
			c := &Client{MoveTime: 8 * time.Second}
			go func() {
				out, err := c.Dial(ctx, addrs[side], bot)
				out.Color = geister.Color(side) // checked below
				outs <- jgRun{out, err}
			}()
		}
		rec := jgNextRecord(t, ctx, recs)
		final := rec.Start
		for _, m := range rec.Moves {
			final = final.PlayUnchecked(m)
		}
		if rec.Result.Reason == geister.Unfinished || rec.Result != geister.GAT.Result(final) {
			t.Errorf("game %d: %v at %s", game, rec.Result, final)
		}
		for range 2 {
			r := <-outs
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.out.Result != rec.Result || r.out.Final.Board(r.out.Color) != final.Board(r.out.Color) || r.out.Reds != rec.Reds[r.out.Color] {
				t.Errorf("game %d, %s: outcome %+v; record %v, %s", game, r.out.Color, r.out, rec.Result, final)
			}
		}
	}
}

// TestClientStatus: the player's ctx carries a timer.Status: the Java
// server's default control, not told, no clocks, our side, Start at the
// MOV?, and the deadline of the ctx (MoveTime after the MOV?, or none).
func TestClientStatus(t *testing.T) {
	def, err := timer.JavaGeister(600, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, moveTime := range []time.Duration{8 * time.Second, 0} {
		t.Run(moveTime.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, mov := jgStartMOV(t)
				peer, conn := newJGPeer(t)
				var st timer.Status
				var ok bool
				var deadline, now time.Time
				player := geister.PlayerFunc(func(ctx context.Context, v geister.View) (geister.Move, error) {
					st, ok = timer.StatusFrom(ctx)
					deadline, _ = ctx.Deadline()
					now = time.Now()
					return v.AppendLegalMoves(nil)[0], nil
				})
				done := jgRunClient(t.Context(), &Client{MoveTime: moveTime}, conn, player)
				peer.write("SET?\r\n")
				peer.next()
				time.Sleep(time.Minute)
				peer.write("OK \r\n" + mov)
				asked := time.Now()
				peer.expect("MOV:A,NORTH")
				switch {
				case !ok:
					t.Fatal("no Status on the ctx")
				case st.Control != def || st.ControlTold:
					t.Errorf("Control %v told %v, want %v untold", st.Control, st.ControlTold, def)
				case st.Own.Told || st.Opponent.Told:
					t.Errorf("clocks told: %+v %+v", st.Own, st.Opponent)
				case st.Side != timer.First || st.Played != 0:
					t.Errorf("Side %v Played %d, want first, 0", st.Side, st.Played)
				case !st.Start.Equal(asked) || st.Start.After(now):
					t.Errorf("Start %v, want the MOV?'s %v", st.Start, asked)
				case !st.Deadline.Equal(deadline):
					t.Errorf("Deadline %v, ctx's %v", st.Deadline, deadline)
				case moveTime > 0 && !st.Deadline.Equal(asked.Add(moveTime)):
					t.Errorf("Deadline %v after MOV?, want %v", st.Deadline.Sub(asked), moveTime)
				}
				peer.conn.Close()
				if res := <-done; !errors.Is(res.err, io.ErrUnexpectedEOF) {
					t.Errorf("Run = %v, want ErrUnexpectedEOF", res.err)
				}
			})
		})
	}
}
