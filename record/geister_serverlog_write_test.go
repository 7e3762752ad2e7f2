package record_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/record"
)

// TestWriteGeisterServerLog: every Java server log of the test data, read
// and written again, comes back byte for byte; a built log reads back.
func TestWriteGeisterServerLog(t *testing.T) {
	dir := geisterTestdataDir(t)
	for _, tc := range geisterServerLogs {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		l, err := record.ReadGeisterServerLog(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		var buf bytes.Buffer
		if err := record.WriteGeisterServerLog(&buf, l); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if buf.String() != string(data) {
			t.Errorf("%s: written back differs:\n%s", tc.file, buf.String())
		}
	}

	l := &record.GeisterServerLog{Winner: -1, Commands: []record.GeisterLogCommand{
		{Player: geister.First, Text: "SET:ABCD"}, {Player: geister.Second, Text: "SET:EFGH"},
		{Player: geister.Second, Text: "MOV:A,N"}, {Player: geister.First, Text: "MOV:A,NORTH"},
	}}
	b, err := record.AppendGeisterServerLog([]byte("x"), l)
	if err != nil || string(b) != "xplayer=0,SET:ABCD\nplayer=1,SET:EFGH\nplayer=1,MOV:A,N\nplayer=0,MOV:A,NORTH\n" {
		t.Fatalf("Append: %q, %v", b, err)
	}
	back, err := record.ReadGeisterServerLog(bytes.NewReader(b[1:]))
	if err != nil || len(back.Moves) != 1 || back.Winner != -1 || back.Commands[2].Accepted {
		t.Errorf("read back: %+v, %v", back, err)
	}

	for _, bad := range []*record.GeisterServerLog{
		{Winner: 3},
		{Winner: -2},
		{Winner: -1, Commands: []record.GeisterLogCommand{{Player: 2, Text: "SET:ABCD"}}},
		{Winner: -1, Commands: []record.GeisterLogCommand{{Player: geister.First, Text: "SET:ABCD\r\nplayer=1,SET:ABCD"}}},
	} {
		if b, err := record.AppendGeisterServerLog([]byte("x"), bad); err == nil || string(b) != "x" || !strings.Contains(err.Error(), "geister server log") {
			t.Errorf("Append(%+v) = %q, %v; want an error and dst unchanged", bad, b, err)
		}
	}
}
