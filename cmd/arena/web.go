package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/botarena/botarena/viewer"
)

// startViewer serves the web viewer on addr (as given to --web, e.g. ":8080"
// or "127.0.0.1:0") until ctx is done, and prints its URL ("Viewer:
// http://127.0.0.1:8080/") to out. The watcher it returns shows the games it
// is told about, live; it is safe for concurrent games and never blocks on a
// slow browser. The replay page serves the record files under recordDirs
// (files or directories) and the records the watcher is told about. wait
// stops the server, if ctx is not done yet, and returns once it has
// stopped: call it when done with the viewer.
func startViewer(ctx context.Context, addr string, out io.Writer, recordDirs []string) (w *servedViewer, wait func(), err error) {
	v, err := viewer.New(viewer.Options{Games: viewer.Games(), Records: recordDirs})
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("web viewer: %w", err)
	}
	ctx, stop := context.WithCancel(ctx)
	srv := &http.Server{
		Handler:           v,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	sv := &servedViewer{Viewer: v, url: viewerURL(ln.Addr())}
	fmt.Fprintf(out, "Viewer: %s\n", sv.url)
	done := make(chan struct{})
	go func() {
		defer close(done)
		served := make(chan struct{})
		go func() {
			defer close(served)
			srv.Serve(ln) // returns http.ErrServerClosed after Shutdown
		}()
		<-ctx.Done()
		// The event streams end with ctx (their requests' base context);
		// give the other requests a moment to finish.
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
		cancel()
		<-served
	}()
	return sv, func() { stop(); <-done }, nil
}

// servedViewer is the web viewer startViewer serves, with its address.
type servedViewer struct {
	*viewer.Viewer
	url string // "http://127.0.0.1:8080/"
}

// viewerURL is the address to print for a listener: a wildcard address
// becomes localhost.
func viewerURL(a net.Addr) string {
	host, port := "localhost", ""
	if t, ok := a.(*net.TCPAddr); ok {
		port = fmt.Sprint(t.Port)
		if !t.IP.IsUnspecified() && t.IP != nil {
			host = t.IP.String()
		}
	} else if h, p, err := net.SplitHostPort(a.String()); err == nil {
		host, port = h, p
	}
	return (&url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/"}).String()
}

// unwrapPath drops the path from a *fs.PathError, for messages that name
// the path already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
