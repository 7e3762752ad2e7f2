// Package mgtp speaks MGTP, the text protocol over standard input and
// output with which the 2021-22 dark chess match system and the NTPU
// launcher drive engines, both sides:
//
//   - the codec: [Command] and [Reply] lines, [ParseCommand], [AppendCommand],
//     [ParseReply] and [AppendReply], with typed constructors and accessors
//     for the dark chess commands;
//   - the engine side: [Serve] makes a darkchess.Player an MGTP
//     engine (one process per game, as the match system runs it); the
//     [timer.Status] on the player's ctx carries the control of
//     time_setting and both colours' time_left, told (nothing told before
//     a time_setting);
//   - the host side: [Program] runs an engine program as a
//     protocol.DarkChessSeat, so that a protocol.DarkChessReferee plays it
//     against any other seat (MGTP, the legacy socket protocol, read mode,
//     a Go player), with the command sequence of the 2021 system, its
//     .command transcript, and its clock.
//
// # Lines
//
// A command is "<id> <name>[ <arg>...]" and a reply "=<id>[ <payload>]" on
// success or "?<id>[ <payload>]" on failure, each on one LF-terminated line.
// Engines dispatch on the numeric id ([ID]) and ignore the name. Readers
// here are lenient in these ways only: a CR before the LF and trailing
// blanks are ignored, and fields may be separated by runs of spaces and
// tabs. Writers produce one canonical form: single spaces, LF, and no
// trailing space.
//
// # Imports
//
// The engine side takes the game's bot interface, darkchess.Player; the
// host side is a protocol.DarkChessSeat, the seat interface of the dark
// chess referee that the three engine protocols (readmode, cdcsocket,
// mgtp) share.
package mgtp
