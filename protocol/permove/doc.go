// Package permove speaks the Ponte del Diavolo course platform's per-move
// program interface: the platform runs
// `prog <W|B> <Y|N> chess.txt bridge.txt stepLog.txt` once per move, and
// the program answers by rewriting chess.txt or bridge.txt.
//
// [Referee] is the platform's side: it runs two [Program]s move by move,
// infers each action from the files ([InferMove]) and never trusts them
// (it reads and writes the game directory only through an os.Root opened
// when the game starts, so no symlink a program plants leads it out), and
// records the game ([GameRecord], the result.json [ResultFile]). A program's
// fault is a [Violation] with a stable name ([ErrTimeout], [ErrFileFormat],
// ...). [Run] is the program's side: it makes a [pdd.Player] such a program
// in a few lines ([RunArgs] is its testable core, [ParseArgs] reads the
// arguments). The player's ctx has the run's deadline and a
// [timer.Status] of the budget as a per-move cap, which package search's
// players share out; a move the player does not give in time is replaced
// by a fallback move that the runner reports ([FallbackMarker]) and the
// referee counts.
package permove
