package timer

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// errorTimeBig is (x − y) / 2, truncated towards zero, in exact arithmetic.
func errorTimeBig(x, y time.Duration) time.Duration {
	d := new(big.Int).Sub(big.NewInt(int64(x)), big.NewInt(int64(y)))
	return time.Duration(d.Quo(d, big.NewInt(2)).Int64())
}

func TestErrorTime(t *testing.T) {
	tests := []struct{ server, client, want time.Duration }{
		{ms(1250), ms(1122), ms(64)}, // the 0.064 s of the manual's Figure 14
		{ms(1122), ms(1250), -ms(64)},
		{0, 0, 0},
		{3, 0, 1},
		{-3, 0, -1},
		{math.MaxInt64, math.MinInt64, math.MaxInt64},
		{math.MinInt64, math.MaxInt64, -math.MaxInt64},
		{0, math.MinInt64, 1 << 62},
		{math.MinInt64, 0, -1 << 62},
		{math.MaxInt64, -1, 1 << 62},
		{-2, math.MaxInt64, -(1 << 62)},
	}
	for _, tt := range tests {
		if got := ErrorTime(tt.server, tt.client); got != tt.want || got != errorTimeBig(tt.server, tt.client) {
			t.Errorf("ErrorTime(%d, %d) = %d, want %d", tt.server, tt.client, got, tt.want)
		}
	}
}

func TestPropertyErrorTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := time.Duration(rapid.Int64().Draw(t, "server"))
		y := time.Duration(rapid.Int64().Draw(t, "client"))
		if got, want := ErrorTime(x, y), errorTimeBig(x, y); got != want {
			t.Fatalf("ErrorTime(%d, %d) = %d, want %d", x, y, got, want)
		}
	})
}
