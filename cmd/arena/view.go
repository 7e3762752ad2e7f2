package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/botarena/botarena/viewer"
)

// viewCmd carries out "arena view [-web ADDR] [files or dirs...]": it serves
// the web viewer for the replays of the record files given and of the files
// under the directories given (the current directory when none is), until
// ctx is done. Any other record can be uploaded on the index page.
func viewCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena view", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena view [-web ADDR] [record files or directories...]\n\n"+
			"Serves the web viewer to replay the record files given, and those under the\n"+
			"directories given (default: the current directory). Accepted records:\n")
		for _, g := range viewer.Games() {
			fmt.Fprintf(stderr, "  %-10s %s\n", g.Name, g.Formats)
		}
		fmt.Fprintf(stderr, "\nflags:\n")
		fs.PrintDefaults()
	}
	addr := fs.String("web", "127.0.0.1:8080", "the viewer's address: host:port, :port for every interface, port 0 for a free one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var missing []string
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, fmt.Sprintf("%s: %v", p, unwrapPath(err)))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("view: %s (give record files or directories that hold them)", strings.Join(missing, "; "))
	}
	_, wait, err := startViewer(ctx, *addr, stdout, paths)
	if err != nil {
		return fmt.Errorf("view: -web %s: %w", *addr, err)
	}
	fmt.Fprintf(stdout, "Replaying the records under %s; press Ctrl-C to quit.\n", strings.Join(paths, ", "))
	<-ctx.Done()
	wait()
	return nil
}
