package viewer

import (
	"fmt"
	"time"
)

// A Watcher is told about the games a host plays, as they are played: the
// feed through which a host publishes its live games. All methods must be
// safe to call from several games at once and must return quickly. A
// *Viewer is a Watcher; Discard is one that does nothing.
type Watcher interface {
	// Begin announces a game and its first frame.
	Begin(info GameInfo, start Frame)
	// Update gives the frame after a ply.
	Update(id string, f Frame)
	// Finish ends the game with its last frame, the result in words and
	// the record file ("" if none).
	Finish(id string, last Frame, result, record string)
}

// GameInfo describes a game to the viewer.
type GameInfo struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`    // the Game's Name: "othello", "geister", "darkchess", "pdd"
	Title   string    `json:"title"`   // "Game 3: alphabeta (black) vs random (white)"
	Players [2]string `json:"players"` // the seats' names, the first mover's first
	Seats   [2]string `json:"seats"`   // the seats' names, as the Game's Seats
}

// A Frame is one picture of a game for the viewer: the board drawn as an
// SVG element (see package boardsvg), and the text around it.
type Frame struct {
	Ply  int    `json:"ply"`            // plies played so far
	Move string `json:"move,omitempty"` // the ply that led here, in the platform's notation ("" at the start)
	// Board is the board as a spectator may see it, a complete <svg>
	// element with a viewBox and no fixed size.
	Board string `json:"board"`
	// Views are the board as each player may see it, where that differs
	// from Board (Geister: "first" and "second", the opponent's colours
	// hidden). Empty for games with nothing hidden from one player alone.
	Views  map[string]string `json:"views,omitempty"`
	Status string            `json:"status"` // "black to move", "first player wins: ChessEscape", ...
	// Clocks are each seat's time left ("9:58.2"), "" for no clock.
	Clocks [2]string `json:"clocks"`
	// ToMove is the seat to move, 0 or 1; -1 when the game is over.
	ToMove int `json:"toMove"`
}

// A Replay is a record file read for the replay page. It holds the game,
// not its pictures: Frame draws the frame of one ply when asked, so that a
// long record costs its positions and not a picture per ply.
type Replay struct {
	Game    string    // the Game's Name
	Players [2]string // as the record names them
	Result  string    // the result in words, "" if the record has none
	// Moves are the plies in the platform's notation: Moves[i] leads from
	// frame i to frame i+1.
	Moves []string
	// Frame draws frame i, 0 <= i <= len(Moves): the start, then the
	// position after each ply. It is safe for concurrent use. The
	// replays of this package's games give the zero Frame for any other
	// i; [Replay.FrameAt] refuses it with an error, whatever Frame does.
	Frame func(i int) Frame
	// Start writes the position after i plies, 0 <= i <= len(Moves), as a
	// start file in the platform's format: one file that arena's
	// "match -start" reads by itself and plays on from (the platform's
	// mid-game file). name is the file's name to suggest
	// ("board-ply12.txt"). It fails, saying why, for a position no game
	// starts from (the game is over there) or a record that cannot be cut
	// (a PDD chess.txt alone). nil when the replay saves no start file;
	// [Replay.StartAt] calls it safely.
	Start func(i int) (name string, data []byte, err error)
}

// Discard is the Watcher of a host that shows its games to nobody: its
// methods do nothing. A host may test for it (w.(viewer.Discard)) and skip
// drawing frames nobody will see.
type Discard struct{}

// Begin does nothing.
func (Discard) Begin(GameInfo, Frame) {}

// Update does nothing.
func (Discard) Update(string, Frame) {}

// Finish does nothing.
func (Discard) Finish(string, Frame, string, string) {}

// A Game is a kind of game the viewer replays records of.
type Game struct {
	// Name is the game's name in links and GameInfo: "othello",
	// "geister", "darkchess", "pdd".
	Name string
	// Title is the game's name in print: "Othello", "Geister", ...
	Title string
	// Seats names the two seats, the first mover's first: "black",
	// "white" (Othello), "first", "second" (Geister), ...
	Seats [2]string
	// Formats says in words which record files Replay reads.
	Formats string
	// Replay reads a record file of the game (name is its base name, data
	// its content) and returns the game for the replay page: its moves,
	// and the frames drawn when asked. nil means the game's records are
	// not replayed. A panic in it is caught and reported as an error.
	Replay func(name string, data []byte) (Replay, error)
}

// Games returns the four games whose records the viewer reads, with
// ReplayOthello, ReplayGeister, ReplayDarkChess and ReplayPDD.
func Games() []Game {
	return []Game{
		{Name: "othello", Title: "Othello", Seats: [2]string{"black", "white"}, Replay: ReplayOthello,
			Formats: "the TUS server's -trans transcript (B:<black>,W:<white>, then x,y,color lines), or a plain move list (f5d6c3...)"},
		{Name: "geister", Title: "Geister", Seats: [2]string{"first", "second"}, Replay: ReplayGeister,
			Formats: "the Java server's game log, or an NTPU board.txt"},
		{Name: "darkchess", Title: "Chinese dark chess", Seats: [2]string{"first", "second"}, Replay: ReplayDarkChess,
			Formats: "a board.txt record (2021 platform, 2017 server, 2019 client)"},
		{Name: "pdd", Title: "Ponte del Diavolo", Seats: [2]string{"white", "black"}, Replay: ReplayPDD,
			Formats: "a stepLog.txt (with chess.txt and bridge.txt beside it when there are any)"},
	}
}

// FormatClock writes a time left as the viewer shows it: "m:ss.t", or
// "h:mm:ss" from an hour up. A negative duration shows as 0:00.0.
func FormatClock(d time.Duration) string {
	d = max(d, 0)
	if d >= time.Hour {
		s := int64(d / time.Second)
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	t := int64(d / (100 * time.Millisecond))
	return fmt.Sprintf("%d:%02d.%d", t/600, t/10%60, t%10)
}
