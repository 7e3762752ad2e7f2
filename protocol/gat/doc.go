// Package gat speaks the protocol of the Java geister server used by the
// Geister AI tournaments (GAT), both sides.
//
// The lines a client sends are [ParseCommand]/[AppendCommand] (SET, MOV)
// and the lines the server sends [ParseEvent]/[AppendEvent] (SET?, MOV?,
// OK, NG, WON, LST, DRW); a board is the 48-character [Board]
// ([ParseBoard], [AppendBoard], [ViewBoard]). [Dial] plays one game for a
// [geister.Player]; [Client] is the same with its options. The server tells
// nothing of time, so the [timer.Status] on the player's ctx carries the
// Java server's default control (600 s, then 10 s a move), not told, no
// clocks, and the client's MoveTime as its deadline. [Host] is a
// server for the Java server's clients (ports 10000 and 10001) without its
// defects, configured by [HostOptions] and recording each game
// ([GameRecord]). [Viewer] is its WebSocket viewer stream at [ViewerPath]
// ([ParseViewerState]); unlike the Java server's, it hides the colours of
// the ghosts on the board until the game ends, and refuses the pages of
// other sites.
package gat
