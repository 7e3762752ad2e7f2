package ntuple

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lineConfig is a board of 4 cells in a row, 3 states, 2 stages, a
// 2-tuple at the end and a 3-tuple in the middle, under the reversal.
func lineConfig() Config {
	return Config{
		Cells: 4, States: 3, Stages: 2,
		Tuples:     [][]int{{0, 1}, {1, 2, 3}},
		Symmetries: [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}},
	}
}

func TestNewShape(t *testing.T) {
	n, err := New(lineConfig())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n.NumWeights(), 2*(9+27); got != want {
		t.Errorf("NumWeights = %d, want %d", got, want)
	}
	if got := n.NumImages(); got != 4 {
		t.Errorf("NumImages = %d, want 4 (two tuples, each reversed)", got)
	}
	for i, want := range []struct {
		tuple int
		cells []int
	}{{0, []int{0, 1}}, {0, []int{3, 2}}, {1, []int{1, 2, 3}}, {1, []int{2, 1, 0}}} {
		if tuple, cells := n.Image(i); tuple != want.tuple || !slices.Equal(cells, want.cells) {
			t.Errorf("Image(%d) = %d %v, want %d %v", i, tuple, cells, want.tuple, want.cells)
		}
	}
	for _, i := range []int{-1, n.NumImages(), math.MaxInt} {
		if tuple, cells := n.Image(i); tuple != -1 || cells != nil {
			t.Errorf("Image(%d) = %d %v, want -1 and no cells (out of range)", i, tuple, cells)
		}
	}
	// A symmetry that maps a tuple onto itself in the same order adds no
	// image.
	c := lineConfig()
	c.Symmetries = append(c.Symmetries, []int{0, 1, 2, 3})
	n, _ = New(c)
	if got := n.NumImages(); got != 4 {
		t.Errorf("with the identity twice, NumImages = %d, want 4", got)
	}
}

func TestSumReadsTheIndex(t *testing.T) {
	n, err := New(Config{Cells: 3, States: 3, Tuples: [][]int{{0, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	w := n.Weights()
	for i := range w {
		w[i] = float32(i)
	}
	// cell 0 in state 2, cell 2 in state 1: index 2 + 1·3.
	if got := n.Sum(0, []uint8{2, 0, 1}); got != 5 {
		t.Errorf("Sum = %v, want 5", got)
	}
	// Short cells and states out of range read as 0.
	if got := n.Sum(0, []uint8{1}); got != 1 {
		t.Errorf("Sum of a short board = %v, want 1", got)
	}
	if got := n.Sum(0, []uint8{7, 0, 2}); got != 6 {
		t.Errorf("Sum with a state out of range = %v, want 6", got)
	}
	if got, want := n.Value(0, []uint8{2, 0, 1}), math.Tanh(5); got != want {
		t.Errorf("Value = %v, want %v", got, want)
	}
}

func TestSymmetricPositionsAgree(t *testing.T) {
	n, _ := New(lineConfig())
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n.Weights() {
		n.Weights()[i] = float32(rng.NormFloat64())
	}
	for range 100 {
		var a [4]uint8
		for i := range a {
			a[i] = uint8(rng.IntN(3))
		}
		b := [4]uint8{a[3], a[2], a[1], a[0]}
		for stage := range 2 {
			if x, y := n.Sum(stage, a[:]), n.Sum(stage, b[:]); math.Abs(x-y) > 1e-5 {
				t.Fatalf("stage %d: %v sums %v, its mirror %v", stage, a, x, y)
			}
		}
	}
}

func TestStagesAreApart(t *testing.T) {
	n, _ := New(lineConfig())
	cells := []uint8{1, 2, 0, 1}
	for range 50 {
		n.Fit(1, cells, 0.8, 0.5)
	}
	if v := n.Value(1, cells); v < 0.7 {
		t.Errorf("after fitting stage 1 toward 0.8, its value is %v", v)
	}
	if v := n.Value(0, cells); v != 0 {
		t.Errorf("fitting stage 1 moved stage 0 to %v", v)
	}
	// Stages out of range are clamped.
	if n.Value(5, cells) != n.Value(1, cells) || n.Value(-1, cells) != n.Value(0, cells) {
		t.Error("stages out of range are not clamped to the first and last")
	}
}

// TestLearnTD: on a chain of positions that always ends in a win for the
// first player, TD(0) learns a positive value for the first player's
// positions and a negative one for the second's.
func TestLearnTD(t *testing.T) {
	n, _ := New(Config{Cells: 1, States: 4, Tuples: [][]int{{0}}})
	steps := []Step{
		{Cells: []uint8{0}, Sign: 1},
		{Cells: []uint8{1}, Sign: -1},
		{Cells: []uint8{2}, Sign: 1},
		{Cells: []uint8{3}, Sign: -1},
	}
	for range 300 {
		n.Learn(steps, 0.9, 0.3, 0)
	}
	for i, s := range steps {
		v := n.Value(0, s.Cells)
		if v*s.Sign < 0.5 {
			t.Errorf("step %d (sign %v): value %v", i, s.Sign, v)
		}
	}
}

func TestEvalAllocatesNothing(t *testing.T) {
	n, _ := New(lineConfig())
	cells := []uint8{1, 2, 0, 1}
	steps := []Step{{Cells: cells, Sign: 1}, {Cells: cells, Sign: -1}}
	if a := testing.AllocsPerRun(100, func() { n.Value(1, cells) }); a != 0 {
		t.Errorf("Value allocates %v times", a)
	}
	if a := testing.AllocsPerRun(100, func() { n.Learn(steps, 1, 0.1, 0.5) }); a != 0 {
		t.Errorf("Learn allocates %v times", a)
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no cells", func(c *Config) { c.Cells = 0 }, "0 cells"},
		{"one state", func(c *Config) { c.States = 1 }, "1 states"},
		{"no tuples", func(c *Config) { c.Tuples = nil }, "0 tuples"},
		{"cell off the board", func(c *Config) { c.Tuples[1][2] = 4 }, "tuple 1: cell 2 is 4"},
		{"cell twice", func(c *Config) { c.Tuples[0][1] = 0 }, "cell 0 appears twice"},
		{"short symmetry", func(c *Config) { c.Symmetries[1] = []int{0, 1} }, "symmetry 1 maps 2 cells"},
		{"not a permutation", func(c *Config) { c.Symmetries[1] = []int{0, 0, 1, 2} }, "not a permutation"},
		{"too many weights", func(c *Config) {
			c.Cells, c.Tuples = 16, [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
			c.Symmetries = nil
		}, "more than"},
	} {
		c := lineConfig()
		tc.edit(&c)
		_, err := New(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func randomNet(t testing.TB) *Network {
	n, err := New(lineConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n.Weights() {
		n.Weights()[i] = float32(rng.NormFloat64())
	}
	return n
}

func TestSaveLoadRoundTrip(t *testing.T) {
	n := randomNet(t)
	var buf bytes.Buffer
	size, err := n.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(buf.Len()) {
		t.Errorf("WriteTo reports %d bytes, wrote %d", size, buf.Len())
	}
	m, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !equalNets(n, m) {
		t.Error("the network read back differs from the one written")
	}
	data, _ := n.MarshalBinary()
	if !bytes.Equal(data, buf.Bytes()) {
		t.Error("MarshalBinary differs from WriteTo")
	}
	var u Network
	if err := u.UnmarshalBinary(data); err != nil || !equalNets(n, &u) {
		t.Errorf("UnmarshalBinary: %v, equal %v", err, err == nil && equalNets(n, &u))
	}
	if err := u.UnmarshalBinary(append(data, 0)); err == nil || !errors.Is(err, ErrFormat) {
		t.Errorf("a byte after the checksum: %v", err)
	}
	// The network read works: same values.
	cells := []uint8{2, 1, 0, 1}
	if n.Value(1, cells) != m.Value(1, cells) {
		t.Error("the network read back values a position differently")
	}
}

func equalNets(a, b *Network) bool {
	ca, cb := a.Config(), b.Config()
	if ca.Cells != cb.Cells || ca.States != cb.States || ca.Stages != cb.Stages || len(ca.Tuples) != len(cb.Tuples) || len(ca.Symmetries) != len(cb.Symmetries) {
		return false
	}
	wa, wb := a.Weights(), b.Weights()
	if len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if math.Float32bits(wa[i]) != math.Float32bits(wb[i]) {
			return false
		}
	}
	return true
}

// withChecksum replaces the last four bytes of data with the CRC-32 of
// the rest.
func withChecksum(data []byte) []byte {
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.ChecksumIEEE(data[:len(data)-4]))
	return data
}

func TestReadErrors(t *testing.T) {
	good, _ := randomNet(t).MarshalBinary()
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "ends at byte 0, in the magic"},
		{"wrong magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "not the magic"},
		{"wrong version", edit(func(b []byte) []byte { b[8] = 9; return withChecksum(b) }), "version 9, not 1"},
		{"short", good[:len(good)-10], "in the weights"},
		{"no checksum", good[:len(good)-4], "in the checksum"},
		{"bad checksum", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), "checksum"},
		{"flipped weight", edit(func(b []byte) []byte { b[len(b)-8] ^= 1; return b }), "checksum"},
		{"NaN weight", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-8:], math.Float32bits(float32(math.NaN())))
			return withChecksum(b)
		}), "weight 71 is NaN"},
		{"huge tuple", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint16(b[18:], 17) // the first tuple's length
			return b
		}), "tuple 0 has 17 cells"},
		{"cell off the board", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint16(b[20:], 9) // the first tuple's first cell
			return withChecksum(b)
		}), "cell 0 is 9"},
		{"no stages", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint16(b[14:], 0)
			return b
		}), "0 stages"},
	} {
		_, err := Read(bytes.NewReader(tc.data))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrFormat saying %q", tc.name, err, tc.want)
		}
	}
}

// TestReadBoundsAllocation: a header announcing the largest shape the
// bounds allow, with no weights after it, fails without reading past it
// and without allocating more than the shape's weights.
func TestReadBoundsAllocation(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(Magic)
	u16 := func(v int) { binary.Write(&b, binary.LittleEndian, uint16(v)) }
	u16(Version)
	u16(16)   // cells
	u16(16)   // states
	u16(1000) // stages: past MaxStages
	u16(1)
	u16(1)
	u16(0)
	u16(0)
	_, err := Read(&b)
	if err == nil || !strings.Contains(err.Error(), "1000 stages") {
		t.Errorf("error %v, want one naming 1000 stages", err)
	}
}

func TestSchedule(t *testing.T) {
	s := Schedule{Start: 1, End: 0.1, Steps: 10}
	for _, tc := range []struct {
		i    int
		want float64
	}{{-1, 1}, {0, 1}, {5, 0.55}, {10, 0.1}, {99, 0.1}} {
		if got := s.At(tc.i); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("At(%d) = %v, want %v", tc.i, got, tc.want)
		}
	}
	if got := (Schedule{Start: 1, End: 0.5}).At(3); got != 0.5 {
		t.Errorf("no steps: At = %v, want the end", got)
	}
}

func FuzzRead(f *testing.F) {
	good, _ := randomNet(f).MarshalBinary()
	f.Add(good)
	f.Add(good[:30])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(bytes.NewReader(data))
		if err != nil {
			if n != nil {
				t.Fatal("Read returned a network with its error")
			}
			return
		}
		// What reads must write back to the same bytes.
		out, err := n.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, data[:len(out)]) {
			t.Fatal("the network read writes back to other bytes")
		}
		n.Value(0, []uint8{1, 2, 3})
	})
}
