package protocol_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol"
)

// A referee plays a game between two seats: here two Go players in the same
// process; programs speaking the legacy socket protocol (cdcsocket.Program),
// MGTP (protocol/mgtp) or read mode take their places the same way.
func ExampleDarkChessReferee_Play() {
	first := func(_ context.Context, v darkchess.View) (darkchess.Move, error) {
		return v.AppendLegalMoves(nil)[0], nil // the first legal ply
	}
	seat := protocol.NewDarkChessPlayerSeat(darkchess.PlayerFunc(first))
	other := protocol.NewDarkChessPlayerSeat(darkchess.PlayerFunc(first))
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
