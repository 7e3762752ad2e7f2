package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/botarena/botarena/ntuple"
	"github.com/botarena/botarena/search"
)

// trainUsage is the usage line of arena train.
const trainUsage = "usage: arena train othello [-seed S] [-games N] [-out FILE] [-j N]"

// runTrain carries out "arena train othello": it trains the n-tuple network
// of search.OthelloPatternEval by self-play (search.TrainOthello), telling
// its progress on stderr at most once a second, and writes the weights
// file atomically (a temporary file beside it, then renamed) at the end.
// The same seed and flags give the same file, whatever -j.
func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "othello" {
		if len(args) > 0 && !helpRequested(args[:1]) {
			return fmt.Errorf("train: %q: only othello is trained (%s)", args[0], trainUsage)
		}
		if !helpRequested(args) {
			return fmt.Errorf("train: name the game (%s)", trainUsage)
		}
	} else {
		args = args[1:]
	}
	def := search.DefaultOthelloTrain()
	fset := flag.NewFlagSet("arena train othello", flag.ContinueOnError)
	fset.SetOutput(stderr)
	seed := fset.Uint64("seed", 1, "seed of the self-play games' random choices")
	games := fset.Int("games", def.Games, "number of self-play games")
	out := fset.String("out", "othello-weights.ntp", "the weights `file` to write")
	jobs := fset.Int("j", runtime.NumCPU(), "games played at once (the file does not depend on it)")
	fset.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\n", trainUsage)
		fmt.Fprintf(stderr, "Trains the n-tuple network of the best Othello bot (search.OthelloPatternEval) by\nself-play with TD(λ): ε-greedy players of one ply (ε %g, λ %g), the learning rate\nfalling from %g to %g. The same seed and flags give the same file, whatever -j. The\nfile is written at the end, atomically. The shipped weights are those of the defaults\nwith the seed their README gives.\n\nflags:\n", def.Epsilon, def.Lambda, def.RateStart, def.RateEnd)
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() > 0 {
		return fmt.Errorf("train othello: unexpected argument %q", fset.Arg(0))
	}
	if *games < 1 {
		return fmt.Errorf("train othello: -games %d: give at least 1", *games)
	}
	if *jobs < 1 {
		return fmt.Errorf("train othello: -j %d: give at least 1", *jobs)
	}
	o := def
	o.Seed, o.Games, o.Workers = *seed, *games, *jobs
	start, last := time.Now(), time.Now()
	o.Progress = func(done int) {
		now := time.Now()
		if now.Sub(last) < time.Second && done < o.Games {
			return
		}
		last = now
		el := now.Sub(start).Seconds()
		rate := float64(done) / max(el, 1e-9)
		eta := time.Duration(float64(o.Games-done) / max(rate, 1e-9) * float64(time.Second)).Round(time.Second)
		fmt.Fprintf(stderr, "train othello: %d/%d games, %.0f games/s, ETA %s\n", done, o.Games, rate, eta)
	}
	n, err := search.TrainOthello(ctx, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errInterrupted
		}
		return fmt.Errorf("train othello: %w", err)
	}
	if err := writeWeights(*out, n); err != nil {
		return fmt.Errorf("train othello: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d games, seed %d, %s\n", *out, o.Games, o.Seed, time.Since(start).Round(time.Second))
	return nil
}

// writeWeights writes n to the file path atomically: to a temporary file
// in the same directory, synced, then renamed over path.
func writeWeights(path string, n *ntuple.Network) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	_, err = n.WriteTo(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
