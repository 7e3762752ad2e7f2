package cdcsocket_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/internal/proctest"
	"github.com/botarena/botarena/protocol"
	"github.com/botarena/botarena/protocol/cdcsocket"
	"github.com/botarena/botarena/timer"
)

// The legacy engines of these tests are this test binary run again as
// "<binary> -test.run=^TestPeer$ -- darkchess-legacy-peer
// <mode> 127.0.0.1 <port>": TestDarkChessLegacyPeer then plays the engine of
// the mode and exits.
const dcPeerMark = "darkchess-legacy-peer"

// TestDarkChessLegacyPeer is not a test: it is the engine program of the
// host tests (it skips in a normal run).
func TestPeer(t *testing.T) {
	args := flag.Args()
	if len(args) != 4 || args[0] != dcPeerMark {
		t.Skip("the engine of the host tests, run by them")
	}
	os.Exit(dcPeer(args[1], args[2:]))
}

// randomPlayer plays uniformly at random among the legal plies.
func randomPlayer(seed uint64) darkchess.Player {
	r := rand.New(rand.NewPCG(seed, 0))
	return darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		moves := v.AppendLegalMoves(nil)
		if len(moves) == 0 {
			return darkchess.NoMove, errors.New("no legal move")
		}
		return moves[r.IntN(len(moves))], nil
	})
}

// flipFirst plays a flip of s as its first ply, then as p.
func flipFirst(s darkchess.Square, p darkchess.Player) darkchess.Player {
	return darkchess.PlayerFunc(func(ctx context.Context, v darkchess.View) (darkchess.Move, error) {
		if len(v.History) == 0 {
			return darkchess.Flip(s), nil
		}
		return p.Play(ctx, v)
	})
}

// dcPeer runs the engine of the given mode on "<ip> <port>".
func dcPeer(mode string, args []string) int {
	ctx := context.Background()
	if mode == "random" {
		if _, err := cdcsocket.DialArgs(ctx, args, randomPlayer(uint64(os.Getpid()))); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
		return 0
	}
	if mode == "noconnect" {
		return 2
	}
	if mode == "hide" {
		time.Sleep(time.Hour)
	}
	conn, err := net.Dial("tcp", net.JoinHostPort(args[0], args[1]))
	if err != nil {
		return 1
	}
	defer conn.Close()
	send := func(payload string) {
		b, _ := cdcsocket.AppendFrame(nil, []byte(payload))
		conn.Write(b)
	}
	recv := func() cdcsocket.Message {
		p, err := cdcsocket.ReadFrame(conn, nil)
		if err != nil {
			os.Exit(1)
		}
		m, _ := cdcsocket.ParseMessage(p)
		return m
	}
	if mode == "noack" {
		time.Sleep(time.Hour)
	}
	recv()
	send("/start")
	turn := recv()
	if mode == "early" {
		// The second player sends its ply with the acknowledgement,
		// before the first player has moved.
		b, _ := cdcsocket.AppendFrame(nil, []byte("/turn"))
		b, _ = cdcsocket.AppendFrame(b, []byte("/flip 0 0"))
		conn.Write(b)
		time.Sleep(time.Hour)
	}
	send("/turn")
	if !turn.First {
		recv()
	}
	// Our turn.
	switch mode {
	case "stall":
	case "crash":
		return 3
	case "disconnect":
		conn.Close()
	case "illegal":
		send("/move 0 0 0 1")
	case "garbage":
		send("hello\x00\xff")
	case "badframe":
		conn.Write([]byte("\xff\xff"))
	case "malformed":
		send("/flip 9")
	case "unknown-then-ply":
		send("/whatever 1 2")
		send("/flip 0 0")
	}
	time.Sleep(time.Hour)
	return 0
}

// dcEngine returns the engine of the given mode.
func dcEngine(t *testing.T, mode string, log *proctest.PIDLog) cdcsocket.Program {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := cdcsocket.Program{
		Path:      exe,
		Args:      []string{"-test.run=^TestPeer$", "--", dcPeerMark, mode},
		Dir:       t.TempDir(),
		FirstPort: -1,
	}
	if log != nil {
		e.Logger = slog.New(log)
	}
	return e
}

// replayDC replays a record from its start and checks it ends as recorded.
func replayDC(t *testing.T, rules darkchess.Rules, rec protocol.DarkChessGameRecord) {
	t.Helper()
	g := darkchess.NewGameFrom(rules, rec.Start, nil)
	for i, p := range rec.Plies {
		if err := g.PlayPly(p); err != nil {
			t.Fatalf("replay: ply %d %v: %v", i+1, p, err)
		}
	}
	if rec.Result.Reason.IsDraw() || rec.Result.Reason == darkchess.NoPieces || rec.Result.Reason == darkchess.NoLegalPly {
		if r, _ := g.Result(); r != rec.Result {
			t.Errorf("replay ends %v, the record says %v", r, rec.Result)
		}
	}
}

// TestDarkChessLegacyHostGames plays whole games between real engine
// processes over real sockets.
func TestHostGames(t *testing.T) {
	for i, ports := range []int{-1, 0} {
		t.Run(fmt.Sprintf("firstport=%d", ports), func(t *testing.T) {
			t.Parallel()
			var log proctest.PIDLog
			a, b := dcEngine(t, "random", &log), dcEngine(t, "random", &log)
			a.FirstPort, b.FirstPort = ports, ports
			var out bytes.Buffer
			a.Output = &out
			ref := protocol.DarkChessReferee{Control: timer.Control{Main: 20 * time.Second}}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(uint64(i), 7)))
			rec, err := ref.Play(ctx, g, [2]protocol.DarkChessSeat{a.Seat(), b.Seat()})
			if err != nil {
				t.Fatal(err)
			}
			switch rec.Result.Reason {
			case darkchess.NoPieces, darkchess.NoLegalPly, darkchess.NoEatFlipDraw, darkchess.PositionRepetitionDraw:
			default:
				t.Fatalf("game ended %v after %d plies; faults %v; engine output %q", rec.Result, len(rec.Plies), rec.Faults, out.String())
			}
			if len(rec.Times) != len(rec.Plies) || !rec.FirstColor.Valid() || rec.Ended.Before(rec.Began) {
				t.Errorf("record: %d times for %d plies, first %v", len(rec.Times), len(rec.Plies), rec.FirstColor)
			}
			replayDC(t, darkchess.Classic, rec)
			log.CheckReaped(t)
			if len(log.PIDs()) != 2 {
				t.Errorf("%d engines started, want 2", len(log.PIDs()))
			}
		})
	}
}

// TestDarkChessLegacyHostFaults: each misbehaving engine loses its game
// with the platform's reason, the host never hangs, and every child is
// reaped.
func TestHostFaults(t *testing.T) {
	for _, tt := range []struct {
		mode      string
		seat      int // where the misbehaving engine sits
		reason    darkchess.Reason
		kind      protocol.DarkChessFaultKind
		control   time.Duration
		handshake time.Duration
		minPlies  int
	}{
		{mode: "noconnect", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessCrashed},
		{mode: "noconnect", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessCrashed, minPlies: 1},
		{mode: "hide", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, handshake: 500 * time.Millisecond},
		{mode: "noack", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, handshake: 500 * time.Millisecond, minPlies: 1},
		{mode: "stall", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond},
		{mode: "stall", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond, minPlies: 1},
		{mode: "crash", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessCrashed, minPlies: 1},
		{mode: "disconnect", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessDisconnected},
		{mode: "illegal", seat: 0, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal},
		{mode: "garbage", seat: 0, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal},
		{mode: "badframe", seat: 1, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal, minPlies: 1},
		{mode: "malformed", seat: 0, reason: darkchess.BadMove, kind: protocol.DarkChessIllegal},
		{mode: "early", seat: 1, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond, minPlies: 3},
		{mode: "unknown-then-ply", seat: 0, reason: darkchess.TimeOut, kind: protocol.DarkChessTimedOut, control: 300 * time.Millisecond, minPlies: 2},
	} {
		t.Run(fmt.Sprintf("%s/seat%d", tt.mode, tt.seat), func(t *testing.T) {
			t.Parallel()
			var log proctest.PIDLog
			bad := dcEngine(t, tt.mode, &log)
			seats := [2]protocol.DarkChessSeat{}
			seats[tt.seat] = bad.Seat()
			seats[1-tt.seat] = protocol.NewDarkChessPlayerSeat(flipFirst(darkchess.B1, randomPlayer(3)))
			ref := protocol.DarkChessReferee{
				Control:          timer.Control{Main: cmp.Or(tt.control, 10*time.Second)},
				HandshakeTimeout: cmp.Or(tt.handshake, 5*time.Second),
			}
			ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
			defer cancel()
			g := darkchess.NewGame(darkchess.Classic, rand.New(rand.NewPCG(1, 2)))
			start := time.Now()
			rec, err := ref.Play(ctx, g, seats)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Result.Reason != tt.reason || rec.Faults[tt.seat] == nil || rec.Faults[1-tt.seat] != nil {
				t.Fatalf("result %v after %d plies, faults %v; want the seat %d engine to lose by %v",
					rec.Result, len(rec.Plies), rec.Faults, tt.seat, tt.reason)
			}
			var want [2]protocol.DarkChessFaultKind
			if want[tt.seat] = tt.kind; rec.FaultKinds != want {
				t.Errorf("fault kinds %v, want %v (%v)", rec.FaultKinds, want, rec.Faults[tt.seat])
			}
			loser := rec.FirstColor
			if tt.seat == 1 {
				loser = loser.Opponent()
			}
			if rec.Result.Draw || rec.Result.Winner != loser.Opponent() {
				t.Errorf("winner %v, want the opponent of %v", rec.Result.Winner, loser)
			}
			if len(rec.Plies) < tt.minPlies {
				t.Errorf("%d plies, want at least %d", len(rec.Plies), tt.minPlies)
			}
			if tt.mode == "early" && rec.Plies[1].Move != darkchess.Flip(darkchess.A1) {
				t.Errorf("the early ply was not taken as the second ply: %v", rec.Plies)
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("the game took %v", d)
			}
			log.CheckReaped(t)
		})
	}
}
