package main

import (
	"context"
	"errors"
	"io"
)

// startViewer serves the web viewer on addr (as given to --web, e.g. ":8080"
// or "127.0.0.1:0") until ctx is done, and prints its URL to out. The watcher
// it returns shows the games it is told about, live; the replay page serves
// the record files under recordDirs. wait blocks until the server has stopped
// (after ctx is done). (Being written: issue 7.)
func startViewer(ctx context.Context, addr string, out io.Writer, recordDirs []string) (w watcher, wait func(), err error) {
	return nil, nil, errors.New("web viewer: not written yet")
}
