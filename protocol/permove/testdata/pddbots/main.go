// Command pddbots is a scripted PDD strategy for the referee's tests. It is
// run as
//
//	pddbots ACTION... <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
//
// and plays, on its n-th turn (n = its lines in stepLog.txt + 1), the n-th
// ACTION, or the first legal move once the script is done. An ACTION is a
// move written as stepLog writes it ("Chess_2,0_2,2", "Bridge_2,0_2,2",
// "Change"), which it writes into the files whether legal or not; "first"
// (the first legal move); raw edits "chess:x,y=v" and "bridge:x,y=v"
// joined by "+"; or a misbehaviour: sleep, steplog, exit3, crash, panic,
// garbage, lines11, spaces, crlf, nothing, noisy, symlink, delete,
// latechild, sabotage, flood (1 MiB on stdout and on stderr, then the
// first legal move), late (through permove.RunArgs, a player that misses
// its 50 ms deadline: a fallback move), wait:DURATION (sleeps, then plays
// the first legal move). Planting actions play the first legal move, print a
// line on stdout, and then plant in the game directory: "link:NAME=TARGET" puts a
// symlink to TARGET at NAME (a file or directory of the game directory,
// replaced), "hardlink:NAME=TARGET" a hard link to the file TARGET at NAME,
// "fifo:NAME" a named pipe at NAME, "chmod:NAME=MODE" sets the permissions
// of NAME (octal; "." is the game directory), "swapdir:TARGET" renames the game
// directory to its name + ".moved" and puts a symlink to TARGET at its
// path, "movedir:DIR" moves the game directory to DIR and puts a symlink to
// it at its path. A script "@official" plays random legal moves under the
// Official profile through permove.RunArgs.
package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "__rewrite" {
		// The late child: rewrite chess.txt 100 ms after starting.
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(os.Args[2], []byte("late garbage\n"), 0o644)
		return
	}
	if len(os.Args) < 6 {
		fmt.Fprintln(os.Stderr, "pddbots: want ACTION... and the 5 arguments")
		os.Exit(2)
	}
	n := len(os.Args)
	script, args := os.Args[1:n-5], os.Args[n-5:]
	if len(script) == 1 && script[0] == "@official" {
		random := pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
			moves := p.AppendLegalMoves(nil)
			return moves[rand.IntN(len(moves))], nil
		})
		os.Exit(permove.RunArgs(context.Background(), append([]string{os.Args[0]}, args...), os.Stderr, random, permove.Options{Rules: pdd.Official}))
	}
	color := pdd.White
	if args[0] == "B" {
		color = pdd.Black
	}
	chessPath, bridgePath, stepPath := args[2], args[3], args[4]

	cf, err := os.ReadFile(chessPath)
	check(err)
	bf, err := os.ReadFile(bridgePath)
	check(err)
	sf, err := os.ReadFile(stepPath)
	check(err)
	c, err := record.ReadPDDChess(bytes.NewReader(cf), record.PDDStrict)
	check(err)
	b, err := record.ReadPDDBridges(bytes.NewReader(bf), record.PDDStrict)
	check(err)
	l, err := record.ReadPDDStepLog(bytes.NewReader(sf), record.PDDStrict)
	check(err)
	own := 0
	for _, s := range l.Steps {
		if s.Color == color {
			own++
		}
	}
	action := "first"
	if own < len(script) {
		action = script[own]
	}

	write := func() {
		cb, _ := c.MarshalText()
		bb, _ := b.MarshalText()
		check(os.WriteFile(chessPath, cb, 0o644))
		check(os.WriteFile(bridgePath, bb, 0o644))
	}
	first := func() {
		bridges, err := b.Bridges()
		check(err)
		p, err := pdd.NewPosition(pdd.Setup{Cells: c.Cells, Bridges: bridges, Turn: color, ChangeAvailable: args[1] == "Y"})
		check(err)
		m := p.AppendLegalMoves(nil)[0]
		apply(&c, &b, color, m)
		write()
	}
	switch action {
	case "first":
		first()
	case "late":
		// Through the strategy runner, with a player that gives no move by
		// its 50 ms deadline: the runner plays a fallback move.
		late := pdd.PlayerFunc(func(ctx context.Context, _ pdd.Position) (pdd.Move, error) {
			<-ctx.Done()
			return pdd.NoMove, ctx.Err()
		})
		os.Exit(permove.RunArgs(context.Background(), append([]string{os.Args[0]}, args...), os.Stderr, late, permove.Options{Budget: 50 * time.Millisecond}))
	case "sleep":
		child := exec.Command("sleep", "60")
		check(child.Start())
		fmt.Fprintln(os.Stderr, hostPid(child.Process.Pid))
		time.Sleep(60 * time.Second)
	case "steplog":
		first()
		check(os.WriteFile(stepPath, append(sf, "W_99_Chess_0,0_1,1\n"...), 0o644))
	case "exit3":
		first()
		os.Exit(3)
	case "crash":
		first()
		debug.SetTraceback("crash") // the runtime aborts: killed by SIGABRT
		panic("crash")
	case "panic":
		first()
		panic("a Go panic: exit status 2")
	case "garbage":
		check(os.WriteFile(chessPath, []byte("this is not a board\n"), 0o644))
	case "lines11":
		first()
		cb, _ := c.MarshalText()
		check(os.WriteFile(chessPath, append(cb, "0,0,0,0,0,0,0,0,0,0\n"...), 0o644))
	case "spaces":
		first()
		cb, _ := c.MarshalText()
		check(os.WriteFile(chessPath, bytes.ReplaceAll(cb, []byte(","), []byte(", ")), 0o644))
	case "crlf":
		c.CRLF, b.CRLF = true, true
		first()
	case "nothing":
	case "noisy":
		fmt.Println("thinking hard")
		fmt.Fprintln(os.Stderr, "some debug output")
		first()
	case "symlink":
		first()
		check(os.Remove(chessPath))
		check(os.Symlink(bridgePath, chessPath))
	case "delete":
		first()
		check(os.Remove(bridgePath))
	case "sabotage":
		// A symlink where the referee keeps violation files, and a file
		// where it keeps logs, then nothing: a violation.
		out, err := os.MkdirTemp("", "pddbots-outside-")
		check(err)
		dir := filepath.Dir(chessPath)
		check(os.Symlink(out, filepath.Join(dir, "violation")))
		check(os.WriteFile(filepath.Join(dir, "logs"), nil, 0o644))
		fmt.Println(out)
	case "flood":
		line := bytes.Repeat([]byte("x"), 1023)
		line = append(line, '\n')
		for range 1024 {
			os.Stdout.Write(line)
			os.Stderr.Write(line)
		}
		first()
	case "latechild":
		first()
		child := exec.Command(os.Args[0], "__rewrite", chessPath)
		check(child.Start())
		fmt.Fprintln(os.Stderr, hostPid(child.Process.Pid))
	default:
		if d, ok := strings.CutPrefix(action, "wait:"); ok {
			wait, err := time.ParseDuration(d)
			check(err)
			time.Sleep(wait)
			first()
			break
		}
		if kind, rest, ok := strings.Cut(action, ":"); ok && plant(kind, rest, filepath.Dir(chessPath), first) {
			break
		}
		if strings.Contains(action, ":") {
			for _, edit := range strings.Split(action, "+") {
				file, rest, _ := strings.Cut(edit, ":")
				pt, v, _ := strings.Cut(rest, "=")
				sq, err := pdd.ParseSquare(pt)
				check(err)
				n, err := strconv.Atoi(v)
				check(err)
				if file == "chess" {
					c.Cells[sq] = pdd.Color(n)
				} else {
					b.Cells[sq] = uint8(n)
				}
			}
			write()
			break
		}
		m, err := pdd.ParseMove(action)
		check(err)
		apply(&c, &b, color, m)
		write()
	}
}

// plant does a planting action (see the package comment) in the game
// directory dir, after playing with first; it reports whether kind is one.
func plant(kind, rest, dir string, first func()) bool {
	name, target, _ := strings.Cut(rest, "=")
	switch kind {
	case "link", "hardlink", "fifo", "chmod", "swapdir", "movedir":
	default:
		return false
	}
	first()
	fmt.Println("planting", kind, rest)
	switch kind {
	case "link":
		check(os.RemoveAll(filepath.Join(dir, name)))
		check(os.Symlink(target, filepath.Join(dir, name)))
	case "hardlink":
		check(os.RemoveAll(filepath.Join(dir, name)))
		check(os.Link(target, filepath.Join(dir, name)))
	case "fifo":
		check(os.RemoveAll(filepath.Join(dir, name)))
		check(syscall.Mkfifo(filepath.Join(dir, name), 0o644))
	case "chmod":
		mode, err := strconv.ParseUint(target, 8, 32)
		check(err)
		check(os.Chmod(filepath.Join(dir, name), os.FileMode(mode)))
	case "swapdir":
		check(os.Rename(dir, dir+".moved"))
		check(os.Symlink(name, dir))
	case "movedir":
		check(os.Rename(dir, name))
		check(os.Symlink(name, dir))
	}
	return true
}

// apply writes move m of color into the files as they are, legal or not.
func apply(c *record.PDDChess, b *record.PDDBridges, color pdd.Color, m pdd.Move) {
	switch m.Action() {
	case pdd.ChessAction:
		x, y := m.Squares()
		c.Cells[x], c.Cells[y] = color, color
	case pdd.BridgeAction:
		x, y := m.Squares()
		k := uint8(0)
		for _, v := range b.Cells {
			k = max(k, v)
		}
		b.Cells[x], b.Cells[y] = k+1, k+1
	case pdd.ChangeAction:
		for i, v := range c.Cells {
			if v == pdd.White {
				c.Cells[i] = pdd.Black
			}
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "pddbots:", err)
		os.Exit(1)
	}
}

// hostPid returns the pid, as the host that runs this program sees it, of
// its child whose pid is pid here: in a PID namespace of its own the two
// differ. /proc is the host's, so this program's children files list host
// pids, and each one's NSpid line ends with its pid here.
func hostPid(pid int) int {
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		children, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		for _, c := range strings.Fields(string(children)) {
			status, _ := os.ReadFile("/proc/" + c + "/status")
			for line := range strings.Lines(string(status)) {
				if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
					if f := strings.Fields(rest); len(f) > 0 && f[len(f)-1] == strconv.Itoa(pid) {
						n, _ := strconv.Atoi(c)
						return n
					}
				}
			}
		}
	}
	return pid
}
