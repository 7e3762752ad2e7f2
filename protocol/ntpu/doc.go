// Package ntpu speaks the NTPU Geister platform's program protocol in its
// two modes: STDIO, where the platform runs the
// program and talks over its standard input and output, and TCP, where the
// program connects to the platform. The board text is the Java server's
// ([gat.Board]).
//
// [ServeSTDIO] makes a [geister.Player] an NTPU STDIO program; [STDIO] is the
// same with its options. The launcher tells a program nothing of time, so
// the [timer.Status] on the player's ctx carries the launcher's default
// control (900 s for the game), not told, no clocks, and STDIO.MoveTime as
// its deadline; a TCP-mode program is a [gat.Client], which does the same
// with the Java server's default. [Host] runs two NTPU programs ([Program], in
// [STDIOMode] or [TCPMode]) against each other and records the game
// ([Game], [ProgramRun]); a program that cannot start is a [StartError].
package ntpu
