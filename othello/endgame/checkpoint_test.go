package endgame

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/botarena/botarena/othello"
)

// tableMagic begins a table file written by writeTable.
const tableMagic = "botarena endgame table 2\n"

// slotBytes is the size of a slot in a table file: P, O, then the entry's
// four bytes.
const slotBytes = 8 + 8 + 4

// writeTable writes the entries of t to w: tableMagic, the number of
// buckets, every slot of every bucket, then the CRC-32 (IEEE) of all that:
// a file whose bounds are taken as proved must be the one written.
func writeTable(w io.Writer, t *table) error {
	crc := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	bw.WriteString(tableMagic)
	var b [slotBytes]byte
	binary.LittleEndian.PutUint64(b[:], uint64(len(t.buckets)))
	bw.Write(b[:8])
	for i := range t.buckets {
		k := &t.buckets[i]
		for j := range bucketSlots {
			binary.LittleEndian.PutUint64(b[0:], k.keys[j][0])
			binary.LittleEndian.PutUint64(b[8:], k.keys[j][1])
			e := k.e[j]
			b[16], b[17], b[18], b[19] = byte(e.lower), byte(e.upper), e.move, e.empties
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// readTable fills t from r, a file of writeTable's of a table of the same
// number of buckets. On an error t holds garbage: clear it.
func readTable(r io.Reader, t *table) error {
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<20)
	tr := io.TeeReader(br, crc)
	magic := make([]byte, len(tableMagic))
	if _, err := io.ReadFull(tr, magic); err != nil || string(magic) != tableMagic {
		return fmt.Errorf("not a table file (%v)", err)
	}
	var b [slotBytes]byte
	if _, err := io.ReadFull(tr, b[:8]); err != nil {
		return fmt.Errorf("table file: %w", err)
	}
	if n := binary.LittleEndian.Uint64(b[:]); n != uint64(len(t.buckets)) {
		return fmt.Errorf("table file of %d buckets, the table has %d", n, len(t.buckets))
	}
	for i := range t.buckets {
		k := &t.buckets[i]
		for j := range bucketSlots {
			if _, err := io.ReadFull(tr, b[:]); err != nil {
				return fmt.Errorf("table file: bucket %d: %w", i, err)
			}
			k.keys[j] = [2]uint64{binary.LittleEndian.Uint64(b[0:]), binary.LittleEndian.Uint64(b[8:])}
			k.e[j] = entry{lower: int8(b[16]), upper: int8(b[17]), move: b[18], empties: b[19]}
		}
	}
	sum := crc.Sum32()
	if _, err := io.ReadFull(br, b[:4]); err != nil {
		return fmt.Errorf("table file: its checksum: %w", err)
	}
	if binary.LittleEndian.Uint32(b[:]) != sum {
		return errors.New("table file: the checksum does not match its content")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return errors.New("table file: bytes after its checksum")
	}
	return nil
}

// saveTable writes the table of s to the file name, through a temporary
// file renamed into place: a stop in the middle leaves the last whole one.
func saveTable(s *Solver, name string) error {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	err = writeTable(f, &s.tt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// loadTable fills the table of s from the file name, if there is one: it
// reports whether there was. A file it refuses leaves the table empty.
func loadTable(s *Solver, name string) (bool, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := readTable(f, &s.tt); err != nil {
		s.Clear()
		return false, fmt.Errorf("%s: %w", name, err)
	}
	return true, nil
}

// checkListedResumable is checkListed for checks longer than a session:
// it starts from the table saved in the file name, if any (making its
// directory if need be), and saves the table there after each slice of
// the search, every long, until the check ends, when it removes the file.
// The table's entries bound exact scores, so a search stopped by its
// context leaves them true, and a new search from them skips the subtrees
// already proved. logf reports each slice.
func checkListedResumable(s *Solver, p problem, number int, m moveValue, name string, every time.Duration, logf func(string, ...any)) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	resumed, err := loadTable(s, name)
	if err != nil {
		return err
	}
	if !resumed {
		s.Clear()
	}
	var nodes uint64
	slice := 0
	err = checkListedBy(p, number, m, func(after othello.Position, alpha, beta int) (Result, error) {
		for {
			slice++
			ctx, cancel := context.WithTimeout(context.Background(), every)
			a, err := s.run(ctx, after, alpha, beta)
			cancel()
			nodes += a.Nodes
			if !errors.Is(err, context.DeadlineExceeded) {
				if err == nil {
					os.Remove(name) // the search is over: its table is no longer needed
				}
				return a, err
			}
			if err := saveTable(s, name); err != nil {
				return a, err
			}
			logf("FFO #%d %s: slice %d (resumed %v): %d nodes so far, table saved", number, m.Move, slice, resumed, nodes)
		}
	})
	if err == nil {
		logf("FFO #%d %s: %+d checked in %d slices (resumed %v), %d nodes", number, m.Move, m.Value, slice, resumed, nodes)
	}
	return err
}

// TestTableResume stops a solve again and again, each time saving the
// table, loading it into a new solver and going on from there: each goes
// further, and the last finds the score and best move of a solve that
// never stopped. Stopped searches leave only true entries.
func TestTableResume(t *testing.T) {
	p := quickPosition(t, 3)
	want, err := New(Options{TableSize: 1 << 14}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "table")
	s := New(Options{TableSize: 1 << 14})
	for slice := 1; ; slice++ {
		r, err := s.Solve(&countdown{context.Background(), 3}, p)
		if err == nil {
			if r.Score != want.Score || r.Best != want.Best || !r.Exact {
				t.Fatalf("after %d slices: %+v, want %+v", slice, r, want)
			}
			t.Logf("%d slices, %d nodes in the last, %d fresh", slice, r.Nodes, want.Nodes)
			if slice < 3 {
				t.Fatalf("the solve ended in %d slices: the test stops nothing", slice)
			}
			return
		}
		if slice > 1000 {
			t.Fatal("the solve does not progress from its saved tables")
		}
		if err := saveTable(s, name); err != nil {
			t.Fatal(err)
		}
		s = New(Options{TableSize: 1 << 14})
		if ok, err := loadTable(s, name); !ok || err != nil {
			t.Fatalf("loadTable = %v, %v", ok, err)
		}
	}
}

func TestTableFileErrors(t *testing.T) {
	s := New(Options{TableSize: 1 << 10})
	dir := t.TempDir()
	if ok, err := loadTable(s, filepath.Join(dir, "none")); ok || err != nil {
		t.Errorf("loadTable of no file = %v, %v; want false, nil", ok, err)
	}
	small := filepath.Join(dir, "small")
	if err := saveTable(s, small); err != nil {
		t.Fatal(err)
	}
	if _, err := loadTable(New(Options{TableSize: 1 << 12}), small); err == nil {
		t.Error("loadTable of a table of another size: no error")
	}
	data, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(data)
	flipped[len(tableMagic)+8+16] ^= 1 // a bound of the first slot
	for _, bad := range [][]byte{nil, []byte("garbage"), data[:len(data)-1], flipped, append(slices.Clone(data), 0)} {
		f := filepath.Join(dir, "bad")
		if err := os.WriteFile(f, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := loadTable(New(Options{TableSize: 1 << 10}), f); err == nil {
			t.Errorf("loadTable of %d bytes: no error", len(bad))
		}
	}
}
