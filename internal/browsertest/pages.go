package browsertest

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"testing"
)

// EventStream reads a server-sent event stream (text/event-stream), as the
// viewer's live pages do.
type EventStream struct {
	t  testing.TB
	sc *bufio.Scanner
}

// OpenEvents opens the event stream at u, failing t unless it answers 200
// with the event-stream content type. Call the returned func to close it.
func OpenEvents(t testing.TB, u string) (*EventStream, func()) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		resp.Body.Close()
		t.Fatalf("GET %s: %s, %s", u, resp.Status, resp.Header.Get("Content-Type"))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	return &EventStream{t: t, sc: sc}, func() { resp.Body.Close() }
}

// Next returns the next event's name and data; ok is false at the end of
// the stream.
func (r *EventStream) Next() (event string, data []byte, ok bool) {
	r.t.Helper()
	for r.sc.Scan() {
		line := r.sc.Text()
		switch {
		case line == "" && event != "":
			return event, data, true
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: ")...)
		}
	}
	return "", nil, false
}

// NextState reads the next event, which must be a "state" event carrying
// JSON, and returns its data.
func (r *EventStream) NextState() json.RawMessage {
	r.t.Helper()
	ev, data, ok := r.Next()
	if !ok || ev != "state" {
		r.t.Fatalf("event %q (stream open: %v), want state", ev, ok)
	}
	if !json.Valid(data) {
		r.t.Fatalf("state event %q is not JSON", data)
	}
	return data
}

// CheckSVG checks that s is one self-contained, well-formed <svg> element:
// the SVG namespace, a viewBox, no fixed width or height, no script and no
// external reference.
func CheckSVG(t testing.TB, s string) {
	t.Helper()
	if !strings.HasPrefix(s, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`) || !strings.HasSuffix(s, "</svg>") ||
		strings.Contains(s, "<script") || strings.Contains(s, "href") {
		t.Fatalf("not a self-contained svg: %.200s", s)
	}
	d := xml.NewDecoder(strings.NewReader(s))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("board is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if e.Name.Local != "svg" {
					t.Fatalf("root element <%s>", e.Name.Local)
				}
				var box bool
				for _, a := range e.Attr {
					box = box || a.Name.Local == "viewBox"
					if a.Name.Local == "width" || a.Name.Local == "height" {
						t.Errorf("the svg has a fixed %s", a.Name.Local)
					}
				}
				if !box {
					t.Errorf("the svg has no viewBox")
				}
			}
			if strings.EqualFold(e.Name.Local, "script") {
				t.Errorf("the svg has a script")
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Fatalf("%d root elements", roots)
	}
}

// DecodeState reads the next "state" event, as [EventStream.NextState],
// and decodes its JSON into a T.
func DecodeState[T any](r *EventStream) T {
	r.t.Helper()
	var st T
	if err := json.Unmarshal(r.NextState(), &st); err != nil {
		r.t.Fatal(err)
	}
	return st
}
