package ntpu_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/protocol/ntpu"
	"github.com/botarena/botarena/record"
	"github.com/botarena/botarena/timer"
)

// firstLegal sets its red ghosts on B-E and plays its first legal move.
type firstLegal struct{}

func (firstLegal) Setup(context.Context) (geister.Reds, error) { return geister.ParseReds("BCDE") }
func (firstLegal) Play(_ context.Context, v geister.View) (geister.Move, error) {
	return v.AppendLegalMoves(nil)[0], nil
}

// A bot as an NTPU STDIO program: here its input is a string and its output
// os.Stdout; in a program they are os.Stdin and os.Stdout. It answers every
// line with one line: the red set, the move, an empty line for the ack and
// for the result; nothing after /exit.
func ExampleServeSTDIO() {
	launcher := "SET?\n" +
		"MOV?14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u\n" +
		"OK \n" +
		"LST:14B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u\n" +
		"/exit\n"
	err := ntpu.ServeSTDIO(context.Background(), strings.NewReader(launcher), os.Stdout, firstLegal{})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// SET:BCDE
	// MOV:A,NORTH
}

// Two programs, one in STDIO mode and one in TCP mode, under the NTPU
// launcher's default settings: Absolute 900 s, 200 plies.
func ExampleHost() {
	control, err := timer.NTPU(timer.NTPUAbsolute, 900*time.Second, 0, 0)
	if err != nil {
		log.Fatal(err)
	}
	h := &ntpu.Host{Rules: geister.NTPU, Time: control}
	g, err := h.Play(context.Background(),
		ntpu.Program{Name: "mine", Path: "./geister-stdio"},
		ntpu.Program{Name: "theirs", Path: "java", Args: ntpu.SplitArgs("-jar tcp.jar"), Mode: ntpu.TCPMode},
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Result)
	for _, p := range g.Players {
		fmt.Printf("%s: %s %s\n", p.Name, p.Status, p.Fault)
	}
	record.WriteGeisterBoard(os.Stdout, g.Record) // the game's board.txt
}
