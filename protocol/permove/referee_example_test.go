//go:build unix

package permove_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/timer"
)

// A referee runs two programs; here "true", which changes nothing and so
// loses on its first turn. The game directory records it.
func ExampleReferee() {
	dir, err := os.MkdirTemp("", "pdd-game-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ref := &permove.Referee{Control: timer.PerMove(2 * time.Second)}
	lazy := permove.Program{Name: "lazy", Command: []string{"true"}}
	rec, err := ref.Play(context.Background(), dir, lazy, lazy)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Result)
	fmt.Println(rec.Violation.Name())
	fmt.Println(rec.Violation)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		fmt.Print(filepath.Base(f), " ")
	}
	fmt.Println()
	// Output:
	// black wins 0/0/0 to 0/0/0 (violation)
	// ErrUnknownAction
	// permove: W turn 1: pdd: not one Chess, Bridge or Change action: nothing was done: the files are unchanged
	// bridge.txt chess.txt result.json stepLog.txt violation
}
