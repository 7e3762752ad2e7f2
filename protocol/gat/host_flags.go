package gat

import (
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/timer"
)

// HostOptions are the command-line options of the Java geister server
// (--port, --wait, --budget, --timeout, ...), which a [Host] accepts with the same meaning, and ours.
// RegisterFlags binds them to a flag.FlagSet, where both "--opt=value" and
// "--opt value" work, as on the Java server; Host and Addrs turn them into a
// host. The zero value is not the defaults: use RegisterFlags, or
// [DefaultHostOptions].
type HostOptions struct {
	Budget        int    // --budget: each player's main time, seconds (600)
	Timeout       int    // --timeout: the time per move once the budget is spent, seconds (10)
	NoNGTerminate bool   // --no_ng_terminate: a refused move gets NG only, and the player tries again
	Wait          int    // --wait: a pause after each reply (OK, NG) before what follows (MOV?, the results), milliseconds (0)
	MaxTurn       int    // --max-turn: the ply limit, 0 for none, -1 for the preset's (the Java server ignores it; we do not)
	Preset        string // --preset: the rules, gat (300 plies) or ntpu (200 plies)
	WholeSeconds  bool   // --whole-seconds: charge whole seconds, with the Java server's extra second
	SetupTimeout  int    // --setup-timeout: seconds to send a valid SET:, 0 for none (60)
	FirstPort     int    // --port0: the first player's port (10000)
	SecondPort    int    // --port1: the second player's port (10001)
	WSPort        int    // --ws-port: the viewer's port, 0 for none (8080)
	WSReveal      bool   // --ws-reveal: the viewer shows the colours while a game goes on (ours hides them; the Java server's shows them)
	WSOrigin      string // --ws-origin: the Origins the viewer accepts besides its own host, comma-separated (see Viewer)
}

// DefaultHostOptions returns the defaults: the Java server's.
func DefaultHostOptions() HostOptions {
	return HostOptions{
		Budget:       timer.JavaGeisterBudget,
		Timeout:      timer.JavaGeisterTimeout,
		MaxTurn:      -1,
		Preset:       "gat",
		SetupTimeout: int(geisterSetupTimeout / time.Second),
		FirstPort:    10000,
		SecondPort:   10001,
		WSPort:       8080,
	}
}

// RegisterFlags defines the options on fs, with the defaults of
// [DefaultHostOptions], storing them in o.
func (o *HostOptions) RegisterFlags(fs *flag.FlagSet) {
	d := DefaultHostOptions()
	fs.IntVar(&o.Budget, "budget", d.Budget, "each player's time `budget` in seconds")
	fs.IntVar(&o.Timeout, "timeout", d.Timeout, "`seconds` per move once the budget is spent")
	fs.BoolVar(&o.NoNGTerminate, "no_ng_terminate", d.NoNGTerminate, "an illegal move gets NG only, and the player tries again")
	fs.IntVar(&o.Wait, "wait", d.Wait, "pause in `ms` after each reply (OK, NG) before what follows: the next MOV?, or the results")
	fs.IntVar(&o.MaxTurn, "max-turn", d.MaxTurn, "the ply `limit` (a draw when reached); 0 for none, -1 for the preset's")
	fs.StringVar(&o.Preset, "preset", d.Preset, "the rules: gat (300 plies) or ntpu (200 plies); an illegal move loses in both")
	fs.BoolVar(&o.WholeSeconds, "whole-seconds", d.WholeSeconds, "charge whole seconds per move, with the Java server's extra second")
	fs.IntVar(&o.SetupTimeout, "setup-timeout", d.SetupTimeout, "`seconds` a player has to send a valid SET:; 0 for none")
	fs.IntVar(&o.FirstPort, "port0", d.FirstPort, "the first player's `port`")
	fs.IntVar(&o.SecondPort, "port1", d.SecondPort, "the second player's `port`")
	fs.IntVar(&o.WSPort, "ws-port", d.WSPort, "the WebSocket viewer's `port` (ws://host:port/ws/geister); 0 for none")
	fs.BoolVar(&o.WSReveal, "ws-reveal", d.WSReveal, "show the ghosts' colours to the viewers while a game goes on (an operator's view: any player could watch the opponent's)")
	fs.StringVar(&o.WSOrigin, "ws-origin", d.WSOrigin, "the web page `origins` the viewer accepts besides its own host, comma-separated: http://host:port, null (a page opened from a file; accepted by default unless -ws-reveal), *")
}

// Host returns a host configured by o: the preset's rules with MaxTurn and
// NoNGTerminate applied, the clock timer.JavaGeister(Budget, Timeout) (in
// whole seconds with WholeSeconds; none when both are 0), Wait and SetupTimeout, and a
// [Viewer] unless WSPort is 0 (its Reveal and Origins from WSReveal
// and WSOrigin). The caller sets the rest (Logger, OnGameEnd, Start).
func (o HostOptions) Host() (*Host, error) {
	var h Host
	switch strings.ToLower(o.Preset) {
	case "gat", "":
		h.Rules = geister.GAT
	case "ntpu":
		h.Rules = geister.NTPU
	default:
		return nil, fmt.Errorf("gat: --preset %q: want gat or ntpu", o.Preset)
	}
	switch {
	case o.MaxTurn >= 0:
		h.Rules.PlyLimit = o.MaxTurn
	case o.MaxTurn != -1:
		return nil, fmt.Errorf("gat: --max-turn %d: want a number of plies, 0 or -1", o.MaxTurn)
	}
	if o.NoNGTerminate {
		h.Rules.IllegalMove = geister.Retry
	}
	if o.Budget < 0 || o.Timeout < 0 {
		return nil, fmt.Errorf("gat: --budget %d --timeout %d: negative time", o.Budget, o.Timeout)
	}
	if o.Budget == 0 && o.Timeout == 0 {
		h.NoTimeLimit = true
	} else {
		c, err := timer.JavaGeister(o.Budget, o.Timeout)
		if err != nil {
			return nil, err
		}
		if o.WholeSeconds {
			c.Charging = timer.WholeSeconds
		}
		h.Time = c
	}
	if o.Wait < 0 {
		return nil, fmt.Errorf("gat: --wait %d: negative", o.Wait)
	}
	h.Wait = time.Duration(o.Wait) * time.Millisecond
	switch {
	case o.SetupTimeout == 0:
		h.SetupTimeout = -1
	case o.SetupTimeout > 0:
		h.SetupTimeout = time.Duration(o.SetupTimeout) * time.Second
	default:
		return nil, fmt.Errorf("gat: --setup-timeout %d: negative", o.SetupTimeout)
	}
	for _, p := range []int{o.FirstPort, o.SecondPort, o.WSPort} {
		if p < 0 || p > 65535 {
			return nil, fmt.Errorf("gat: port %d out of range", p)
		}
	}
	origins, err := ParseViewerOrigins(o.WSOrigin)
	if err != nil {
		return nil, fmt.Errorf("%w (--ws-origin)", err)
	}
	if o.WSPort != 0 {
		h.Viewer = &Viewer{Reveal: o.WSReveal, Origins: origins}
	}
	return &h, nil
}

// Addrs returns the listening addresses of o's ports on every interface, as
// the Java server binds them: the first player's, the second player's, and
// the viewer's ("" when WSPort is 0).
func (o HostOptions) Addrs() (first, second, viewer string) {
	addr := func(p int) string { return net.JoinHostPort("", strconv.Itoa(p)) }
	if o.WSPort != 0 {
		viewer = addr(o.WSPort)
	}
	return addr(o.FirstPort), addr(o.SecondPort), viewer
}
