package ntuple

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// The weights file. All numbers are little-endian:
//
//	magic     8 bytes  "NTUPLE\r\n"
//	version   uint16   1
//	cells     uint16
//	states    uint16
//	stages    uint16
//	tuples    uint16, then for each: its length (uint16), then its cells (uint16 each)
//	syms      uint16, then for each: the image of every cell (uint16 each)
//	weights   float32 each: stage, then tuple, then index
//	checksum  uint32   CRC-32 (IEEE) of every byte before it
const (
	// Magic opens a weights file.
	Magic = "NTUPLE\r\n"
	// Version is the version of the file format that [Network.WriteTo]
	// writes and [Read] reads.
	Version = 1
)

// ErrFormat is wrapped by every error of [Read] about what the file says
// (as opposed to an error reading it).
var ErrFormat = errors.New("ntuple: not a valid weights file")

// formatError returns an error wrapping ErrFormat.
func formatError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// WriteTo writes the network to w in the weights file format (see [Read]),
// and returns the number of bytes written.
func (n *Network) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	h := crc32.NewIEEE()
	mw := io.MultiWriter(bw, h)
	var count int64
	var buf [4]byte
	u16 := func(v int) {
		binary.LittleEndian.PutUint16(buf[:2], uint16(v))
		mw.Write(buf[:2])
		count += 2
	}
	io.WriteString(mw, Magic)
	count += int64(len(Magic))
	c := n.cfg
	u16(Version)
	u16(c.Cells)
	u16(c.States)
	u16(c.Stages)
	u16(len(c.Tuples))
	for _, t := range c.Tuples {
		u16(len(t))
		for _, cell := range t {
			u16(cell)
		}
	}
	u16(len(c.Symmetries))
	for _, s := range c.Symmetries {
		for _, cell := range s {
			u16(cell)
		}
	}
	for _, x := range n.w {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(x))
		mw.Write(buf[:])
		count += 4
	}
	binary.LittleEndian.PutUint32(buf[:], h.Sum32())
	bw.Write(buf[:])
	count += 4
	return count, bw.Flush()
}

// MarshalBinary returns the network in the weights file format.
func (n *Network) MarshalBinary() ([]byte, error) {
	var b byteWriter
	_, err := n.WriteTo(&b)
	return b, err
}

type byteWriter []byte

func (b *byteWriter) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// reader reads a weights file, keeping its checksum.
type reader struct {
	r   io.Reader
	h   hashWriter
	buf [4]byte
	err error
	at  int64 // bytes read
}

type hashWriter interface {
	io.Writer
	Sum32() uint32
}

func (r *reader) read(p []byte, what string) bool {
	if r.err != nil {
		return false
	}
	n, err := io.ReadFull(r.r, p)
	r.at += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			r.err = formatError("the file ends at byte %d, in the %s", r.at, what)
		} else {
			r.err = fmt.Errorf("ntuple: reading the %s: %w", what, err)
		}
		return false
	}
	r.h.Write(p)
	return true
}

func (r *reader) u16(what string) int {
	if !r.read(r.buf[:2], what) {
		return 0
	}
	return int(binary.LittleEndian.Uint16(r.buf[:2]))
}

// Read reads a network in the weights file format from r: the magic
// [Magic], the [Version], the shape (cells, states, stages, the tuples and
// the symmetries, as a [Config]), the weights as float32, and a CRC-32 of
// all that. It reads no more than the file announces, and refuses a shape
// past the bounds of [New] ([MaxWeights] weights at most) before reading
// the weights, so that a file from anywhere cannot make it allocate much.
// Its errors name what is wrong and where, wrapping [ErrFormat] when the
// file is not a valid weights file (a wrong magic or version, a bad shape,
// a short file, a non-finite weight, a checksum that does not match).
func Read(r io.Reader) (*Network, error) {
	rd := &reader{r: r, h: crc32.NewIEEE()}
	var magic [len(Magic)]byte
	if !rd.read(magic[:], "magic") {
		return nil, rd.err
	}
	if string(magic[:]) != Magic {
		return nil, formatError("the file opens with %q, not the magic %q", magic[:], Magic)
	}
	if v := rd.u16("version"); rd.err == nil && v != Version {
		return nil, formatError("version %d, not %d", v, Version)
	}
	var c Config
	c.Cells = rd.u16("cell count")
	c.States = rd.u16("state count")
	c.Stages = rd.u16("stage count")
	nt := rd.u16("tuple count")
	if rd.err != nil {
		return nil, rd.err
	}
	if c.Stages == 0 {
		return nil, formatError("0 stages")
	}
	if c.Cells == 0 || c.Cells > MaxCells {
		return nil, formatError("%d cells, not within 1..%d", c.Cells, MaxCells)
	}
	if nt == 0 || nt > MaxTuples {
		return nil, formatError("%d tuples, not within 1..%d", nt, MaxTuples)
	}
	for i := range nt {
		l := rd.u16(fmt.Sprintf("length of tuple %d", i))
		if rd.err == nil && (l == 0 || l > MaxTupleLen) {
			return nil, formatError("tuple %d has %d cells, not within 1..%d", i, l, MaxTupleLen)
		}
		t := make([]int, l)
		for j := range t {
			t[j] = rd.u16(fmt.Sprintf("cells of tuple %d", i))
		}
		c.Tuples = append(c.Tuples, t)
	}
	ns := rd.u16("symmetry count")
	if rd.err == nil && ns > MaxSymmetries {
		return nil, formatError("%d symmetries, more than %d", ns, MaxSymmetries)
	}
	for i := range ns {
		s := make([]int, c.Cells)
		for j := range s {
			s[j] = rd.u16(fmt.Sprintf("symmetry %d", i))
		}
		c.Symmetries = append(c.Symmetries, s)
	}
	if rd.err != nil {
		return nil, rd.err
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	n, err := New(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	const chunk = 4096
	var buf [4 * chunk]byte
	for i := 0; i < len(n.w); i += chunk {
		k := min(chunk, len(n.w)-i)
		if !rd.read(buf[:4*k], "weights") {
			return nil, rd.err
		}
		for j := range k {
			x := math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:]))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, formatError("weight %d is %v", i+j, x)
			}
			n.w[i+j] = x
		}
	}
	want := rd.h.Sum32()
	if !rd.read(rd.buf[:4], "checksum") {
		return nil, rd.err
	}
	if got := binary.LittleEndian.Uint32(rd.buf[:4]); got != want {
		return nil, formatError("checksum %08x, but the contents sum to %08x", got, want)
	}
	return n, nil
}

// UnmarshalBinary reads the network from data in the weights file format,
// as [Read] does, replacing n's shape and weights; bytes after the
// checksum are an error.
func (n *Network) UnmarshalBinary(data []byte) error {
	r := &sliceReader{b: data}
	m, err := Read(r)
	if err != nil {
		return err
	}
	if len(r.b) > 0 {
		return formatError("%d bytes after the checksum", len(r.b))
	}
	*n = *m
	return nil
}

type sliceReader struct{ b []byte }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
