package permove_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/record"
)

// The referee works out a program's action from the files it left: here
// Black bridged its two tiles.
func ExampleInferMove() {
	p := pdd.Course.Start()
	for _, m := range []string{"Chess_2,0_2,2", "Chess_5,5_7,7"} {
		mv, _ := pdd.ParseMove(m)
		p, _ = p.Play(mv)
	}
	p, _ = p.Play(pdd.Chess(pdd.SquareAt(0, 9), pdd.SquareAt(9, 9))) // White; Black to move
	chess, _ := record.NewPDDChess(p).MarshalText()
	b := record.NewPDDBridges(p)
	b.Cells[pdd.SquareAt(5, 5)], b.Cells[pdd.SquareAt(7, 7)] = 1, 1
	bridge, _ := b.MarshalText()
	m, err := permove.InferMove(p, chess, bridge)
	fmt.Println(m, err)

	// Bridge number 2 where 1 is due: the numbers are not 1..K.
	b.Cells[pdd.SquareAt(5, 5)], b.Cells[pdd.SquareAt(7, 7)] = 2, 2
	bridge, _ = b.MarshalText()
	_, err = permove.InferMove(p, chess, bridge)
	v := &permove.Violation{Color: pdd.Black, Turn: 4, Err: err}
	fmt.Println(v.Name(), errors.Is(v, permove.ErrFileFormat))
	// Output:
	// Bridge_5,5_7,7 <nil>
	// ErrFileFormat true
}

// A strategy program's main calls permove.Run; its testable core
// runs here on files in a temporary directory.
func ExampleRunArgs() {
	dir, err := os.MkdirTemp("", "pdd-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	empty := []byte("0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n" +
		"0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0,0,0\n")
	paths := []string{filepath.Join(dir, "chess.txt"), filepath.Join(dir, "bridge.txt"), filepath.Join(dir, "stepLog.txt")}
	for i, data := range [][]byte{empty, empty, nil} {
		os.WriteFile(paths[i], data, 0o644)
	}
	first := pdd.PlayerFunc(func(_ context.Context, p pdd.Position) (pdd.Move, error) {
		return p.AppendLegalMoves(nil)[0], nil // Chess_0,0_1,0
	})
	code := permove.RunArgs(context.Background(), append([]string{"./E12345678.out", "W", "N"}, paths...), os.Stdout, first, permove.Options{})
	chess, _ := os.ReadFile(paths[0])
	fmt.Print(code, "\n", string(chess[:20]))

	// A bad invocation.
	code = permove.RunArgs(context.Background(), []string{"./E12345678.out", "W", "N"}, os.Stdout, first, permove.Options{})
	fmt.Println(code)
	// Output:
	// 0
	// 1,1,0,0,0,0,0,0,0,0
	// E12345678.out: permove: usage: PROG <W|B> <Y|N> <chess.txt> <bridge.txt> <stepLog.txt> (got 2 arguments)
	// 2
}
