package record

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/internal/lineio"
)

// GeisterServerLog is the per-game log of the Java geister server
// (./log/log-<timestamp>.txt): every command the server received, as
// received, "player=<0|1>,<command>", and "winner=<0|1|2>" (2 for a draw)
// when the game ended by the rules. [ReadGeisterServerLog] replays it with
// the Java server's own acceptance rules to tell the commands it accepted
// from those it refused.
type GeisterServerLog struct {
	// Commands are the logged commands in order, refused ones included.
	Commands []GeisterLogCommand
	// Reds are the red sets the server accepted, first player first (the
	// zero Reds for a player whose SET it never accepted).
	Reds [2]geister.Reds
	// Moves are the accepted moves in order, normalised (escapes sideways).
	Moves []geister.Move
	// Winner is the winner= line: 0 or 1 for the first or second player, 2
	// for a draw, or -1 if the log has none.
	Winner int
	// Result is the outcome: the board's (or the ply limit's) when the
	// replay ends the game, which a winner= line must confirm; else
	// IllegalMove against the player whose move was refused last, when
	// that refusal is the last thing the side to move sent and the log
	// shows no retry (the server's default policy ends the game on it);
	// else Unfinished: a time out, a disconnect or a cut log, which the
	// log cannot tell apart.
	Result geister.Result
	// Retry reports that the server ran with --no_ng_terminate: a move
	// it refused from the side to move was followed by an accepted move.
	Retry bool
}

// GeisterLogCommand is one "player=N,<command>" line of a
// [GeisterServerLog].
type GeisterLogCommand struct {
	Line     int           // the line number in the log, from 1
	Player   geister.Color // who sent it (player=0 is the first player)
	Text     string        // the command as received, without its line end
	Accepted bool          // whether the server accepted it
	Reds     geister.Reds  // an accepted SET: the red set
	Move     geister.Move  // an accepted MOV: the move, normalised
	Why      string        // a refused command: why the server refused it
}

// geisterJavaWord reports whether s matches the Java regular expression \w*
// (ASCII letters, digits and '_').
func geisterJavaWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')) {
			return false
		}
	}
	return true
}

// geisterJavaDirection reads a direction as the Java server's Direction.dir
// does, after upper-casing.
func geisterJavaDirection(s string) (geister.Direction, bool) {
	switch strings.ToUpper(s) {
	case "NORTH", "N":
		return geister.North, true
	case "EAST", "E":
		return geister.East, true
	case "WEST", "W":
		return geister.West, true
	case "SOUTH", "S":
		return geister.South, true
	}
	return 0, false
}

// geisterLogState is the replay of a Java server log.
type geisterLogState struct {
	log     *GeisterServerLog
	set     [2]bool
	started bool
	pos     geister.Position
	over    bool           // the rules ended the game
	result  geister.Result // the rules' result, when over
	pending int            // 1 + the index in Commands of the last refused move from the side to move, 0 if none since the last accepted move
}

// ReadGeisterServerLog reads and replays a Java geister server log.
//
// Lines end in LF or CRLF; blank lines are skipped. Every other line is
// "player=0," or "player=1," and the command, or "winner=0", "winner=1" or
// "winner=2". The commands are replayed with the Java server's rules (not
// our host's): during setup a SET: followed by exactly four word characters
// is accepted once per player, upper-cased (four distinct letters A-H are
// needed to replay; the server's accepting "SET:AAAA" is an error here); in
// play, only the side to move is heard, and a MOV: is the whole line "MOV:",
// word characters, ",", word characters, of which the server takes the
// ghost field's first character (so "MOV:Abc,N" moves A) and the direction
// NORTH, EAST, WEST, SOUTH or one letter, in any case; the move must be legal
// (NORTH from an exit is the escape). Everything else is refused. The game
// ends by the rules under [geister.GAT]: a winner= line must then follow and
// agree, and may be followed by more (refused) commands. The ply limit of
// 300 is the server's, whatever its --max-turn option (a defect of the
// server, D6).
//
// A fault is a [*ParseError] naming the line: a line of neither form, a
// second winner= line, a winner= line that disagrees with the replay or
// comes before the game ended.
func ReadGeisterServerLog(rd io.Reader) (*GeisterServerLog, error) {
	if rd == nil {
		return nil, errors.New("record: nil reader")
	}
	l := &GeisterServerLog{Winner: -1}
	st := &geisterLogState{log: l}
	lr := lineio.NewReader(rd, MaxLineLength)
	n, winnerLine := 0, 0
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			break
		}
		n++
		if err != nil {
			return nil, lineError(n, err)
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "player="):
			if len(line) < 9 || (line[7] != '0' && line[7] != '1') {
				return nil, &ParseError{Line: n, Column: 8, Msg: "the player must be 0 or 1", Err: ErrSyntax}
			}
			if line[8] != ',' {
				return nil, &ParseError{Line: n, Column: 9, Msg: `"," must follow the player`, Err: ErrSyntax}
			}
			if msg := st.command(n, geister.Color(line[7]-'0'), line[9:]); msg != "" {
				return nil, &ParseError{Line: n, Column: 10, Msg: msg, Err: ErrSyntax}
			}
		case strings.HasPrefix(line, "winner="):
			if winnerLine != 0 {
				return nil, &ParseError{Line: n, Msg: fmt.Sprintf("a second winner line (the first is line %d)", winnerLine), Err: ErrSyntax}
			}
			if len(line) != 8 || line[7] < '0' || line[7] > '2' {
				return nil, &ParseError{Line: n, Column: 8, Msg: "the winner must be 0, 1 or 2", Err: ErrSyntax}
			}
			w := int(line[7] - '0')
			if !st.over {
				return nil, &ParseError{Line: n, Msg: fmt.Sprintf("winner=%d, but the game is not over after %d moves", w, len(l.Moves)), Err: ErrSyntax}
			}
			if want := geisterJavaWinner(st.result); w != want {
				return nil, &ParseError{Line: n, Column: 8, Msg: fmt.Sprintf("winner=%d, but the replay says winner=%d (%s)", w, want, st.result), Err: ErrSyntax}
			}
			winnerLine, l.Winner = n, w
		default:
			return nil, &ParseError{Line: n, Column: 1, Msg: `a line must start with "player=" or "winner="`, Err: ErrSyntax}
		}
	}
	switch {
	case st.over:
		l.Result = st.result
	case st.pending != 0 && !l.Retry:
		c := l.Commands[st.pending-1]
		l.Result = geister.Result{Reason: geister.IllegalMove, Winner: c.Player.Opponent()}
	}
	return l, nil
}

// geisterJavaWinner is the winner= value of a result.
func geisterJavaWinner(r geister.Result) int {
	if r.Draw {
		return 2
	}
	return int(r.Winner)
}

// command replays one command. It returns a message for a command the
// replay cannot follow.
func (st *geisterLogState) command(line int, from geister.Color, text string) string {
	l := st.log
	c := GeisterLogCommand{Line: line, Player: from, Text: text}
	switch {
	case st.over:
		c.Why = "the game is over"
	case !st.started:
		if msg := st.setCommand(&c); msg != "" {
			return msg
		}
	case from != st.pos.Turn():
		c.Why = "not this player's turn"
	default:
		st.moveCommand(&c)
		if !c.Accepted {
			st.pending = len(l.Commands) + 1
		}
	}
	l.Commands = append(l.Commands, c)
	return ""
}

// setCommand replays a command during setup. It returns a message for a
// SET the server accepts but the replay cannot follow.
func (st *geisterLogState) setCommand(c *GeisterLogCommand) string {
	arg, ok := strings.CutPrefix(c.Text, "SET:")
	switch {
	case !ok || !geisterJavaWord(arg):
		c.Why = "not a SET command"
		return ""
	case len(arg) != 4:
		c.Why = "a SET needs 4 letters"
		return ""
	case st.set[c.Player]:
		c.Why = "this player has set already"
		return ""
	}
	up := strings.ToUpper(arg)
	for i := 0; i < 4; i++ {
		if up[i] < 'A' || up[i] > 'H' {
			c.Why = "a letter outside A-H (the server's thread fails here, D3)"
			return ""
		}
	}
	reds, err := geister.ParseReds(up)
	if err != nil {
		return fmt.Sprintf("%s: the server accepts a letter twice, leaving fewer than 4 red ghosts, which cannot be replayed", c.Text)
	}
	c.Accepted, c.Reds = true, reds
	st.set[c.Player] = true
	st.log.Reds[c.Player] = reds
	if st.set[0] && st.set[1] {
		p, err := geister.Start(st.log.Reds[0], st.log.Reds[1])
		if err == nil {
			st.pos, st.started = p, true
		}
	}
	return ""
}

// moveCommand replays a command from the side to move.
func (st *geisterLogState) moveCommand(c *GeisterLogCommand) {
	arg, ok := strings.CutPrefix(c.Text, "MOV:")
	ghost, dir, comma := strings.Cut(arg, ",")
	if !ok || !comma || !geisterJavaWord(ghost) || !geisterJavaWord(dir) {
		c.Why = "not a MOV command"
		return
	}
	if ghost == "" {
		c.Why = "an empty ghost field (the server's thread fails here, D8)"
		return
	}
	g := ghost[0] &^ 0x20
	d, okd := geisterJavaDirection(dir)
	if !okd || g < 'A' || g > 'H' {
		c.Why = "an unknown ghost or direction"
		return
	}
	m := st.pos.Normalize(geister.NewMove(geister.Ghost(g-'A'), d))
	next, err := st.pos.Play(m)
	if err != nil {
		c.Why = geisterMoveReason(err)
		return
	}
	c.Accepted, c.Move = true, m
	if st.pending != 0 {
		st.log.Retry = true
		st.pending = 0
	}
	st.pos = next
	st.log.Moves = append(st.log.Moves, m)
	if r := geister.GAT.Result(next); r.Reason != geister.Unfinished {
		st.over, st.result = true, r
	}
}

// Game replays the log: the start with the accepted red sets, then the
// accepted moves, under [geister.GAT] (with the Retry policy if the log shows
// it); an inferred IllegalMove result is applied with [geister.Game.Forfeit].
// It fails if a player never set its red ghosts.
func (l *GeisterServerLog) Game() (*geister.Game, error) {
	if l == nil {
		return nil, errors.New("record: nil GeisterServerLog")
	}
	start, err := geister.Start(l.Reds[0], l.Reds[1])
	if err != nil {
		return nil, fmt.Errorf("record: server log: the game never started: %w", err)
	}
	r := geister.GAT
	if l.Retry {
		r.IllegalMove = geister.Retry
	}
	g := geister.NewGame(r, start)
	for i, m := range l.Moves {
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("record: server log: move %d: %w", i+1, err)
		}
	}
	if l.Result.Reason == geister.IllegalMove && !g.IsOver() {
		if err := g.Forfeit(l.Result.Winner.Opponent(), geister.IllegalMove); err != nil {
			return nil, fmt.Errorf("record: server log: %w", err)
		}
	}
	return g, nil
}
