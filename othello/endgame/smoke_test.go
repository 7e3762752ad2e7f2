package endgame

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	f, _ := os.Open(os.Getenv("OBF"))
	ps, err := readOBF(f)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	var tot uint64
	start := time.Now()
	for i, p := range ps {
		t0 := time.Now()
		r, _ := s.Solve(context.Background(), p.Pos)
		tot += r.Nodes
		ok := r.Score == p.Moves[0].Value
		t.Logf("%d: %+v want %v ok=%v %v", i, r, p.Moves[0], ok, time.Since(t0))
		if !ok {
			t.Error("wrong")
		}
	}
	t.Logf("total %d nodes %v", tot, time.Since(start))
}
