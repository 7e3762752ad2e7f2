// Package ntpu speaks the NTPU Geister platform's program protocol in its
// two modes: STDIO, where the platform runs the
// program and talks over its standard input and output, and TCP, where the
// program connects to the platform. The board text is the Java server's
// ([gat.Board]).
//
// [ServeSTDIO] makes a [geister.Player] an NTPU STDIO program; [STDIO] is the
// same with its options. [Host] runs two NTPU programs ([Program], in
// [STDIOMode] or [TCPMode]) against each other and records the game
// ([Game], [ProgramRun]); a program that cannot start is a [StartError].
package ntpu
