// Package boardsvg draws a position of any of the four games as an SVG
// picture, as python-chess's chess.svg does for chess: Othello, Geister,
// Chinese dark chess and Ponte del Diavolo, each as its platform draws it.
//
// One function per game takes the game's Position and an options value, and
// returns a complete, self-contained <svg> element (no script, no external
// reference, system fonts only):
//
//	boardsvg.Othello(p, boardsvg.OthelloOptions{Last: m})
//	boardsvg.Geister(p, boardsvg.GeisterOptions{Last: m, Before: prev, Hide: [2]bool{false, true}})
//	boardsvg.DarkChess(p, boardsvg.DarkChessOptions{Last: m, Status: "red to move"})
//	boardsvg.PDD(p, boardsvg.PDDOptions{Last: m})
//
// The options share their names where the idea is the same: Last is the
// move that led to the position (the game's NoMove for none), marked on the
// board; Size is the picture's width in pixels (its height in proportion),
// 0 for none, so that the picture fills what the page gives it (it always
// has a viewBox). Where the games differ, the options say why: Geister hides
// ghosts' colours (Hide, one flag per side: a spectator's or a player's
// view), and needs the position before the move (Before) to draw where the
// ghost came from, since a Geister move is a ghost and a direction; a dark
// chess picture carries the players, their colours, the clocks and the
// status, as the platform's board window does.
//
// The output is deterministic: the same position and options give the same
// bytes, so pictures may be compared, cached and tested byte for byte.
package boardsvg
