// Package nsinit is the first process (pid 1) of the PID namespace in which
// package proc runs a program: the host's own binary started again with
// [Arg0] as its argv[0] and [Var] in its environment, which this package's
// init function sees before the host's other packages are initialized (as
// Docker's reexec package does). It starts the program as its child, with
// the standard input, output and error, the working directory and the
// environment it was given (less [Var]), in a process group of the
// program's own; reaps every orphan of the namespace; reports to the host,
// over the pipe at file descriptor [Fd], the program's pid as the host sees
// it and then the program's exact wait status; and exits, which kills
// whatever is left in the namespace.
//
// The program so keeps the signal semantics of any process (a pid 1
// ignores the signals from its own namespace that it has no handler for:
// kill -ABRT $$ would do nothing), and its own pid is not 1. The package
// imports only syscall (it reads its arguments from /proc), so that it is
// initialized as soon as syscall is, before the host's other packages, and
// the init does little work before it starts the program.
//
// The init takes no signal from within the namespace: a process there that
// signals it (kill 1) ends it as the Go runtime ends a program on that
// signal, and the namespace with it; the host then reports the init's own
// end as the program's.
package nsinit
