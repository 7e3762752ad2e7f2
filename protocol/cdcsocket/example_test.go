package cdcsocket_test

import (
	"fmt"

	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/protocol/cdcsocket"
)

// The bytes of the legacy socket protocol: a frame is two length bytes and
// the payload.
func ExampleAppendFrame() {
	payload, _ := cdcsocket.AppendMessage(nil, cdcsocket.Message{
		Kind: cdcsocket.TurnMsg, First: true, Color: darkchess.NoColor,
	})
	frame, _ := cdcsocket.AppendFrame(nil, payload)
	fmt.Printf("%q\n", frame)

	m, _ := cdcsocket.ParseMessage([]byte("/flip 1 7 1 898800"))
	fmt.Println(m.Kind, m.Ply, m.Time)
	// Output:
	// "\t\x00/turn 1 2"
	// ply report b8(K) 14m58.8s
}

// A "/start_" message describes the position; View rebuilds it for the
// engine.
func ExampleInit_View() {
	m, _ := cdcsocket.ParseMessage([]byte("/start_8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,0,8,8,13,15,8,8," +
		"0,2,2,2,2,2,5,1,2,2,2,2,2,5,4,29_ 1,25_15,28_13,25-29,880212"))
	v, _ := m.Init.View(true, darkchess.NoColor)
	fmt.Println(v.Viewer(), v.History, v.TimeLeft[v.Viewer()])
	fmt.Println(v)
	// Output:
	// red [b8(K) b7(p) a8(n) b7-b8] 14m40.212s
	// npXX/X-XX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX r 02222251222124 0
}
