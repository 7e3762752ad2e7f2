// Command geister_ntpu_tcpbot is a test program for the NTPU TCP mode: it is
// started as "geister_ntpu_tcpbot <mode> <ip> <port>" and behaves as mode
// says.
//
//	good       plays at random with gat.Dial, a Java-server client
//	noconnect  exits at once with status 3, never connecting
//	sleep      sleeps for an hour, never connecting
//	outofturn  sets its reds, sends a move before its turn, copies what the
//	           host sends to standard error and never moves
package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/gat"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: geister_ntpu_tcpbot mode ip port")
		os.Exit(2)
	}
	addr := net.JoinHostPort(os.Args[2], os.Args[3])
	switch os.Args[1] {
	case "good":
		random := func(_ context.Context, v geister.View) (geister.Move, error) {
			moves := v.AppendLegalMoves(nil)
			return moves[rand.IntN(len(moves))], nil
		}
		out, err := gat.Dial(context.Background(), addr, geister.PlayerFunc(random))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "result:", out.Result)
	case "noconnect":
		os.Exit(3)
	case "sleep":
		time.Sleep(time.Hour)
	case "outofturn":
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sc := bufio.NewScanner(conn)
		sc.Scan() // SET?
		fmt.Fprint(conn, "SET:ABCD\r\nMOV:A,N\r\n")
		for sc.Scan() {
			fmt.Fprintf(os.Stderr, "%q\n", sc.Text())
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}
