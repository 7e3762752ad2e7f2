package main

import (
	"fmt"
	"slices"
	"strings"
)

// An ending is how a game ended, in arena's one vocabulary for the four
// games and every protocol: the word after "wins by" or "draw by" in a result
// line, the ending column of results.tsv, the endings of a match's summary
// and the viewer's last status. The platforms' own words (TimeOut,
// ChessEscape, violation, ...) stay in their records.
//
// When a program misbehaved, its fault decides the ending (a program that
// never started loses by "start failure" in every game, whatever the
// platform writes); otherwise the game's rules do.
type ending uint8

// The endings. endNone is a game without an ending (unfinished).
const (
	endNone ending = iota

	// Losses by a program's fault, one per faultKind.
	endStart    // the program could not be started
	endCrash    // it exited with a non-zero status or died by a signal
	endProtocol // it broke the protocol: garbage, a wrong command, a closed connection or output, an exit with status 0 before the end
	endIllegal  // it sent a well-formed move the rules forbid
	endTime     // it did not answer in time (to start, connect, hand-shake or move)

	// Endings by the rules.
	endResign       // the loser resigned (dark chess's MGTP "a0 a0", Geister's platforms, a person)
	endDiscs        // Othello: neither side can move, the discs decide (a draw if equal)
	endScore        // PDD: the points decide (a draw if points, islands and bridges are all equal)
	endIslands      // PDD: points equal, the islands decide
	endBridges      // PDD: points and islands equal, the bridges decide
	endEscape       // Geister: a blue ghost escaped
	endBlueCaptured // Geister: the winner captured the loser's four blue ghosts
	endRedCaptured  // Geister: the loser captured the winner's four red ghosts
	endNoPieces     // dark chess: the loser has no pieces left
	endNoMoves      // dark chess: the loser, to move, has no legal move
	endNoProgress   // dark chess: a draw after too many plies without a capture or a flip
	endRepetition   // dark chess: a draw by a repeated cycle of plies
	endPlyLimit     // Geister: a draw at the ply limit
	endAgreed       // a draw two persons agreed on (human.go)

	numEndings
)

// endingWords are the endings' words, by ending.
var endingWords = [numEndings]string{
	endNone:         "",
	endStart:        "start failure",
	endCrash:        "crash",
	endProtocol:     "protocol error",
	endIllegal:      "illegal move",
	endTime:         "time",
	endResign:       "resignation",
	endDiscs:        "discs",
	endScore:        "score",
	endIslands:      "islands",
	endBridges:      "bridges",
	endEscape:       "escape",
	endBlueCaptured: "blue captured",
	endRedCaptured:  "red captured",
	endNoPieces:     "no pieces",
	endNoMoves:      "no moves",
	endNoProgress:   "no progress",
	endRepetition:   "repetition",
	endPlyLimit:     "ply limit",
	endAgreed:       "agreed draw",
}

// String returns the ending's word: "time", "blue captured", ...; "" for
// endNone.
func (e ending) String() string {
	if e < numEndings {
		return endingWords[e]
	}
	return fmt.Sprintf("ending(%d)", uint8(e))
}

// parseEnding reads an ending's word as String writes it ("" is endNone).
// For the results.tsv files of earlier arenas, whose column held the
// platform's word, it also reads those words (case-insensitively):
// "discs", "TimeOut", "ChessEscape", "NoEatFlipDraw", "violation", ...;
// a platform word that names no one ending (a forfeit, "violation") reads
// as the fault's ending where a fault is known, which readResults settles.
func parseEnding(s string) (ending, error) {
	if i := slices.Index(endingWords[:], s); i >= 0 {
		return ending(i), nil
	}
	switch strings.ToLower(s) {
	case "unfinished":
		return endNone, nil
	case "timeout":
		return endTime, nil
	case "disconnect", "violation":
		return endProtocol, nil
	case "errors", "illegalmove", "moveerror":
		return endIllegal, nil
	case "resign":
		return endResign, nil
	case "draw":
		return endScore, nil
	case "chessescape":
		return endEscape, nil
	case "noblueghost":
		return endBlueCaptured, nil
	case "noredghost":
		return endRedCaptured, nil
	case "gameplylimitdraw":
		return endPlyLimit, nil
	case "nopieces":
		return endNoPieces, nil
	case "nolegalply", "nomove":
		return endNoMoves, nil
	case "noeatflipdraw":
		return endNoProgress, nil
	case "positionrepetitiondraw":
		return endRepetition, nil
	}
	return endNone, fmt.Errorf("ending %q is none of arena's (%s)", s, strings.Join(endingWords[1:], ", "))
}

// ending is the ending a fault of kind k gives its program's opponent: the
// loss of the program that did it.
func (k faultKind) ending() ending {
	switch k {
	case faultStart:
		return endStart
	case faultCrash:
		return endCrash
	case faultProtocol:
		return endProtocol
	case faultIllegal:
		return endIllegal
	case faultTimeout:
		return endTime
	}
	return endNone
}

// settleEnding is the ending of a game that ended with res, by the rules
// with the ending byRules unless the loser misbehaved: then its fault's.
func settleEnding(res gameResult, byRules ending) ending {
	if res.Winner == 0 || res.Winner == 1 {
		if k := res.Faults[1-res.Winner].Kind; k != noFault {
			return k.ending()
		}
	}
	if res.Winner < -1 {
		return endNone
	}
	return byRules
}

// endingStatus says how a game with result res ended, its seats' players
// being names, as the result line does: "alice wins by escape (...)", "draw
// by repetition (...)", "unfinished (...)". The viewer shows it as the
// game's last status.
func endingStatus(names [2]string, res gameResult) string {
	var b strings.Builder
	switch res.Winner {
	case 0, 1:
		fmt.Fprintf(&b, "%s wins", names[res.Winner])
	case -1:
		b.WriteString("draw")
	default:
		b.WriteString("unfinished")
	}
	if res.Winner >= -1 && res.Ending != endNone {
		fmt.Fprintf(&b, " by %s", res.Ending)
	}
	if res.Detail != "" {
		fmt.Fprintf(&b, " (%s)", res.Detail)
	}
	return b.String()
}

// endingCounts writes how many of results ended each way, the most frequent
// first (then in the vocabulary's order): "7 discs, 2 time, 1 crash"; ""
// when none has an ending.
func endingCounts(results []gameResult) string {
	var n [numEndings]int
	for _, r := range results {
		if r.Winner >= -1 && r.Ending < numEndings && r.Ending != endNone {
			n[r.Ending]++
		}
	}
	order := make([]ending, 0, numEndings)
	for e := range numEndings {
		if n[e] > 0 {
			order = append(order, e)
		}
	}
	slices.SortStableFunc(order, func(a, b ending) int { return n[b] - n[a] })
	parts := make([]string, len(order))
	for i, e := range order {
		parts[i] = fmt.Sprintf("%d %s", n[e], e)
	}
	return strings.Join(parts, ", ")
}

// endingsHelp is the vocabulary as "arena help results" and the README list
// it.
const endingsHelp = `How a game ended, in the same words for the four games and every
protocol (the result line's "wins by ..."/"draw by ...", the ending
column of results.tsv, the endings of the summary, the viewer's status):

A program's fault (the program that did it loses):
  start failure   it could not be started: not found, not executable, not a program
  crash           it exited with a non-zero status or died by a signal
  protocol error  it broke the protocol: garbage, a wrong command, a closed
                  connection or output, an exit with status 0 before the end
  illegal move    a well-formed move the rules forbid (Othello: too many
                  rejected commands)
  time            no answer in time: to start, connect, hand-shake or move

The rules:
  resignation     the loser resigned (dark chess, Geister; a person, any game)
  discs           Othello: neither side can move; the disc counts decide
  score           PDD: the points decide ("draw by score": points, islands
                  and bridges all equal)
  islands         PDD: points equal; the islands decide
  bridges         PDD: points and islands equal; the bridges decide
  escape          Geister: a blue ghost escaped
  blue captured   Geister: the winner captured the loser's four blue ghosts
  red captured    Geister: the loser captured the winner's four red ghosts
  ply limit       Geister: a draw at the ply limit
  agreed draw     two persons agreed on a draw (players "human")
  no pieces       dark chess: the loser has no pieces left
  no moves        dark chess: the loser, to move, has no legal move
  no progress     dark chess: a draw after too many plies without a capture
                  or a flip
  repetition      dark chess: a draw by a repeated cycle of plies

When a program misbehaved, its fault decides the ending whatever the
platform calls it; the platform's own word stays in the game's record. A
game that did not end (interrupted, or neither program started) is
"unfinished". After the players, a result line names each program's fault
("; bot: crash, exit status 3; stderr: ...") and the game's main record,
its path under the run's directory as -out gave it.
`
