// Command darkchess_readmode is a scripted read-mode dark chess engine for
// the host's tests. It is run in its directory as
//
//	darkchess_readmode [N=ACTION]...
//
// and, when board.txt holds N plies, does ACTION; otherwise it plays a
// random legal ply. The actions: random; hang (sleeps for an hour, after
// starting a child that does too and writes its pid to child.pid); crash
// (exit status 3, nothing written); panic; garbage (move.txt is not a
// move); illegal (a well-formed move of a square that holds no piece of the
// side to move); nothing (exit status 0, nothing written); fifo (move.txt is
// a named pipe); crashafter (a random legal ply, then exit status 3); swap
// (a random legal ply, then the engine's directory is moved aside and a
// symlink to the directory of the argument to=DIR put in its place).
package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/readmode"
	"github.com/botarena/botarena/record"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "__sleep" {
		time.Sleep(time.Hour)
		return
	}
	plies := -1
	if f, err := os.Open("board.txt"); err == nil {
		if b, err := record.ReadDarkChessBoard(f); err == nil {
			plies = len(b.Plies)
		}
		f.Close()
	}
	action, swapTo := "random", ""
	for _, arg := range os.Args[1:] {
		if to, ok := strings.CutPrefix(arg, "to="); ok {
			swapTo = to
		}
		if n, a, ok := strings.Cut(arg, "="); ok && n == strconv.Itoa(plies) {
			action = a
		}
	}
	fmt.Fprintf(os.Stderr, "darkchess_readmode: %d plies, %s\n", plies, action)
	switch action {
	case "random", "crashafter", "swap":
		random := darkchess.PlayerFunc(func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
			moves := v.AppendLegalMoves(nil)
			return moves[rand.IntN(len(moves))], nil
		})
		if err := readmode.Run(context.Background(), ".", random); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if action == "swap" {
			dir, err := os.Getwd()
			if err == nil {
				err = os.Rename(dir, dir+".moved")
			}
			if err == nil {
				err = os.Symlink(swapTo, dir)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if action == "crashafter" {
			os.Exit(3)
		}
	case "hang":
		child := exec.Command(os.Args[0], "__sleep")
		if err := child.Start(); err == nil {
			// Written whole or not at all: the program may be killed at any time.
			os.WriteFile("child.pid.tmp", []byte(strconv.Itoa(hostPid(child.Process.Pid))), 0o644)
			os.Rename("child.pid.tmp", "child.pid")
		}
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "darkchess_readmode: crashing")
		os.Exit(3)
	case "panic":
		panic("darkchess_readmode: panic")
	case "garbage":
		os.WriteFile("move.txt", []byte("2\nz9\nq\n0\n"), 0o644)
	case "illegal":
		f, _ := os.Open("board.txt")
		b, _ := record.ReadDarkChessBoard(f)
		v, _ := b.View()
		for sq := range darkchess.Square(32) {
			if pc := v.At(sq); !pc.Valid() || pc.Color() != v.Turn() {
				to := sq + 4
				if sq >= 28 {
					to = sq - 4
				}
				os.WriteFile("move.txt", []byte(fmt.Sprintf("0\n%s\n%s\n0\n", sq, to)), 0o644)
				break
			}
		}
	case "nothing":
	case "fifo":
		os.Remove("move.txt")
		if err := syscall.Mkfifo("move.txt", 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
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
