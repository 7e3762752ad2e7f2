package protocol_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol"
)

// The bytes of the legacy socket protocol: a frame is two length bytes and
// the payload.
func ExampleAppendDarkChessFrame() {
	payload, _ := protocol.AppendDarkChessMessage(nil, protocol.DarkChessMessage{
		Kind: protocol.DarkChessTurnMsg, First: true, Color: darkchess.NoColor,
	})
	frame, _ := protocol.AppendDarkChessFrame(nil, payload)
	fmt.Printf("%q\n", frame)

	m, _ := protocol.ParseDarkChessMessage([]byte("/flip 1 7 1 898800"))
	fmt.Println(m.Kind, m.Ply, m.Time)
	// Output:
	// "\t\x00/turn 1 2"
	// ply report b8(K) 14m58.8s
}

// A "/start_" message describes the position; View rebuilds it for the
// engine.
func ExampleDarkChessInit_View() {
	m, _ := protocol.ParseDarkChessMessage([]byte("/start_8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,0,8,8,13,15,8,8," +
		"0,2,2,2,2,2,5,1,2,2,2,2,2,5,4,29_ 1,25_15,28_13,25-29,880212"))
	v, _ := m.Init.View(true, darkchess.NoColor)
	fmt.Println(v.Viewer(), v.History, v.TimeLeft[v.Viewer()])
	fmt.Println(v)
	// Output:
	// red [b8(K) b7(p) a8(n) b7-b8] 14m40.212s
	// npXX/X-XX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r 02222251222124 0
}

// A referee plays a game between two seats: here two Go players in the same
// process; programs speaking the legacy socket protocol (DarkChessLegacyEngine),
// MGTP (protocol/mgtp) or read mode take their places the same way.
func ExampleDarkChessReferee_Play() {
	first := func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		return v.AppendLegalMoves(nil)[0], nil // the first legal ply
	}
	seat := protocol.NewDarkChessPlayerSeat(protocol.DarkChessPlayerFunc(first))
	other := protocol.NewDarkChessPlayerSeat(protocol.DarkChessPlayerFunc(first))
	var ref protocol.DarkChessReferee
	g := darkchess.NewGame(darkchess.NTU2021, rand.New(rand.NewPCG(1, 2)))
	rec, err := ref.Play(context.Background(), g, [2]protocol.DarkChessSeat{seat, other})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Result, "after", len(rec.Plies), "plies; first player", rec.FirstColor)
	// Output:
	// draw (PositionRepetitionDraw,3,4) after 49 plies; first player black
}
