package mgtp_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/mgtp"
)

// An MGTP engine is a player and one call; here the host's commands come
// from a string rather than from standard input.
func ExampleServe() {
	first := func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		return v.AppendLegalMoves(nil)[0], nil // the first legal ply
	}
	commands := strings.NewReader("1 name\n2 version\n7 reset_board\n15 time_setting 900000\n14 ready\n" +
		"12 genmove unknown\n11 flip a1 k\n16 time_left black 900000\n11 flip b1 P\n16 time_left red 889436\n" +
		"12 genmove black\n5 quit\n")
	e := mgtp.Engine{Name: "MyAI"}
	if err := e.Serve(context.Background(), commands, os.Stdout, darkchess.PlayerFunc(first)); err != nil {
		fmt.Println(err)
	}
	// Output:
	// =1 MyAI
	// =2 1.0.0
	// =7
	// =15
	// =14
	// =12 a1 a1
	// =11
	// =16
	// =11
	// =16
	// =12 c1 c1
	// =5
}

func ExampleParseCommand() {
	c, _ := mgtp.ParseCommand("11 flip b8 K\n")
	ply, _ := c.Ply()
	fmt.Println(c.ID, ply)
	r, _ := mgtp.ParseReply("=12 b8 b8 ")
	m, _ := r.Move()
	fmt.Println(r.ID, m, m.IsFlip())
	fmt.Print(string(mgtp.AppendCommand(nil, mgtp.TimeLeftCommand(darkchess.Red, 899503e6))))
	// Output:
	// flip b8(K)
	// genmove b8-b8 true
	// 16 time_left red 899503
}
