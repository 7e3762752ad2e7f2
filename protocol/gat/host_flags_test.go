package gat

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/botarena/botarena/geister"
)

func TestHostOptions(t *testing.T) {
	parse := func(args ...string) (*Host, HostOptions, error) {
		var o HostOptions
		fs := flag.NewFlagSet("geister", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.RegisterFlags(fs)
		if err := fs.Parse(args); err != nil {
			return nil, o, err
		}
		h, err := o.Host()
		return h, o, err
	}
	h, o, err := parse()
	jgMust(t, err)
	if h.Rules != geister.GAT || h.Time.String() != "600s+10s/move" || h.SetupTimeout != time.Minute || h.Wait != 0 || h.Viewer == nil {
		t.Errorf("defaults: %+v", h)
	}
	if a, b, c := o.Addrs(); a != ":10000" || b != ":10001" || c != ":8080" {
		t.Errorf("default addresses %q %q %q", a, b, c)
	}
	// The Java server's spellings: --opt=value and --opt value.
	h, o, err = parse("--budget=3", "--timeout", "2", "--no_ng_terminate", "--max-turn=10", "--wait", "100", "--whole-seconds",
		"--setup-timeout=0", "--ws-port=0", "--port0=20000", "--port1", "20001")
	jgMust(t, err)
	want := geister.GAT
	want.PlyLimit, want.IllegalMove = 10, geister.Retry
	if h.Rules != want || h.Time.String() != "3s+2s/move whole-seconds" || h.SetupTimeout >= 0 || h.Wait != 100*time.Millisecond || h.Viewer != nil {
		t.Errorf("options: %+v", h)
	}
	if a, b, c := o.Addrs(); a != ":20000" || b != ":20001" || c != "" {
		t.Errorf("addresses %q %q %q", a, b, c)
	}
	h, _, err = parse("--preset", "ntpu", "--budget=0", "--timeout=0", "--max-turn=0")
	jgMust(t, err)
	if want := (geister.Rules{Name: "ntpu", IllegalMove: geister.Lose}); h.Rules != want || !h.NoTimeLimit {
		t.Errorf("ntpu, no limits: %+v", h)
	}
	h, _, err = parse("--preset", "NTPU")
	jgMust(t, err)
	if h.Rules != geister.NTPU {
		t.Errorf("ntpu: %+v", h.Rules)
	}
	for _, bad := range [][]string{{"--preset=java"}, {"--max-turn=-2"}, {"--budget=-1"}, {"--wait=-1"}, {"--setup-timeout=-1"}, {"--port0=70000"}, {"--budget=x"}} {
		if _, _, err := parse(bad...); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
