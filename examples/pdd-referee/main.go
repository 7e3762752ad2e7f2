// Command pdd-referee referees Ponte del Diavolo games between two strategy
// programs over the course platform's per-move file interface, and prints one
// line per game and the totals:
//
//	go build -o /tmp/pdd-random ./examples/pdd-random
//	go run ./examples/pdd-referee -games 4 /tmp/pdd-random /tmp/pdd-random
//
// Each program is split on spaces, with no shell, so "python3 bot.py" works;
// the five arguments of the interface are appended. Colours alternate: the
// first program plays White in odd games. Each game is recorded in its own
// directory under -out (stepLog.txt, the final chess.txt and bridge.txt,
// result.json, the programs' output, the files of a violation). A game's
// line counts the fallback moves each side reported: moves its strategy
// runner played because the player missed its deadline or failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/botarena/pdd"
	"github.com/botarena/botarena/protocol/permove"
	"github.com/botarena/botarena/timer"
)

func main() {
	games := flag.Int("games", 2, "number of games; colours alternate")
	limit := flag.Duration("limit", 5*time.Second, "time limit per move; 0 for none")
	rules := pdd.Course
	flag.TextVar(&rules, "rules", pdd.Course, "rule profile: course or official")
	crlf := flag.Bool("crlf", false, "write the files with CRLF line ends")
	out := flag.String("out", "", "directory for the game directories (default: a new temporary one)")
	workdir := flag.String("workdir", "", "working directory of the programs (default: each program's own)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: pdd-referee [flags] PROG_A PROG_B")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 || *games < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if *out == "" {
		dir, err := os.MkdirTemp("", "pdd-games-")
		if err != nil {
			log.Fatal(err)
		}
		*out = dir
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	progs := [2]permove.Program{
		{Name: flag.Arg(0), Command: strings.Fields(flag.Arg(0))},
		{Name: flag.Arg(1), Command: strings.Fields(flag.Arg(1))},
	}
	ref := &permove.Referee{Rules: rules, Control: timer.PerMove(*limit), NoTimeLimit: *limit == 0, CRLF: *crlf, WorkDir: *workdir}
	var wins [2]int
	draws := 0
	for i := range *games {
		w, b := i%2, 1-i%2 // A is White in odd games (1, 3, ...)
		dir := filepath.Join(*out, fmt.Sprintf("game-%03d", i+1))
		rec, err := ref.Play(ctx, dir, progs[w], progs[b])
		if err != nil {
			log.Fatalf("game %d: %v", i+1, err)
		}
		line := fmt.Sprintf("game %d: A is %s: %s in %d actions", i+1, [2]string{"W", "B"}[w], rec.Result, len(rec.Moves))
		if v := rec.Violation; v != nil {
			line += fmt.Sprintf(" [%s: %v]", v.Name(), v)
		}
		if fw, fb := rec.Fallbacks(pdd.White), rec.Fallbacks(pdd.Black); fw+fb > 0 {
			line += fmt.Sprintf(" [fallback moves: W %d, B %d]", fw, fb)
		}
		fmt.Println(line)
		switch {
		case rec.Result.Draw:
			draws++
		case rec.Result.Winner == pdd.White:
			wins[w]++
		case rec.Result.Winner == pdd.Black:
			wins[b]++
		}
	}
	fmt.Printf("A %d, B %d, draws %d; records in %s\n", wins[0], wins[1], draws, *out)
}
