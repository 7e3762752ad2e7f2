package viewer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The viewer's memory is bounded per request and in total:
//
//   - a replay page lists the moves of its record and no picture: the browser
//     fetches the frame of each ply it shows from /replay/frame, drawn then;
//   - at most MaxHeavy requests that read a record or draw a frame (a replay
//     page, an upload, a frame, the index's check of the record files) run at
//     once; another waits HeavyWait for its turn, then gets 503;
//   - the uploaded records are kept (at most MaxUploads of them, and
//     MaxUploadBytes in all, the oldest dropped first) so that their pages
//     can fetch their frames;
//   - the records read are kept read (at most MaxParsed, the least recently
//     used dropped first), each bounded by its game's ply cap;
//   - the index remembers which record files replay, with their players
//     and result clipped (at most maxRecordVerdicts of them).

// maxRecordVerdicts bounds the record files whose check the index
// remembers (path, size and time: the game that reads it, or none); past it
// the index forgets them all and checks again.
const maxRecordVerdicts = 20000

// replayStore holds what the replay pages need between requests: the
// uploaded records, the records read, and the index's checks of record
// files. It is safe for concurrent use.
type replayStore struct {
	limits Limits

	mu      sync.Mutex
	uploads map[string]*storedUpload
	order   []*storedUpload // oldest first
	bytes   int64           // the data of the uploads kept
	parsed  []*parsedReplay // least recently used first
	// verdicts are the index's checks of record files: by recordKey, what
	// the file holds (its Game "" when no game reads it).
	verdicts map[string]recordSummary
}

// storedUpload is an uploaded record, named by its content's hash.
type storedUpload struct {
	id   string
	name string
	data []byte
}

// parsedReplay is a record read by its game's Replay, kept so that its
// frames are drawn without reading it again.
type parsedReplay struct {
	key      string
	rp       Replay
	def      *Game
	detected bool // the game was found from the content, not asked for
}

func newReplayStore(limits Limits) *replayStore {
	return &replayStore{limits: limits, uploads: map[string]*storedUpload{}, verdicts: map[string]recordSummary{}}
}

// uploadID names an upload by its content: the same record uploaded twice is
// kept once.
func uploadID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// addUpload keeps data, uploaded as name, and returns its id. The oldest
// uploads go, with their read replays, while more than MaxUploads or
// MaxUploadBytes are kept (never the one just added).
func (s *replayStore) addUpload(name string, data []byte) string {
	id := uploadID(data)
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.uploads[id]; u != nil {
		u.name = name
		s.order = deleteUpload(s.order, u)
		s.order = append(s.order, u)
		return id
	}
	u := &storedUpload{id: id, name: name, data: data}
	s.uploads[id] = u
	s.order = append(s.order, u)
	s.bytes += int64(len(data))
	for len(s.order) > 1 && (len(s.order) > s.limits.MaxUploads || s.bytes > s.limits.MaxUploadBytes) {
		old := s.order[0]
		s.order = s.order[1:]
		delete(s.uploads, old.id)
		s.bytes -= int64(len(old.data))
		s.dropParsedLocked(uploadKey(old.id))
	}
	return id
}

// deleteUpload removes u from list.
func deleteUpload(list []*storedUpload, u *storedUpload) []*storedUpload {
	for i, x := range list {
		if x == u {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// upload returns the upload id, if it is still kept.
func (s *replayStore) upload(id string) (*storedUpload, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.uploads[id]
	return u, ok
}

// uploadKey is the key of an upload's read replays (a prefix: the game
// follows).
func uploadKey(id string) string { return "upload\x00" + id + "\x00" }

// getParsed returns the replay read under key, now the most recently used.
func (s *replayStore) getParsed(key string) (*parsedReplay, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range s.parsed {
		if p.key == key {
			s.parsed = append(append(s.parsed[:i:i], s.parsed[i+1:]...), p)
			return p, true
		}
	}
	return nil, false
}

// putParsed keeps p under its key, dropping the least recently used past
// MaxParsed.
func (s *replayStore) putParsed(p *parsedReplay) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.parsed {
		if q.key == p.key {
			s.parsed = append(s.parsed[:i], s.parsed[i+1:]...)
			break
		}
	}
	s.parsed = append(s.parsed, p)
	if n := len(s.parsed) - s.limits.MaxParsed; n > 0 {
		clear(s.parsed[:n])
		s.parsed = s.parsed[n:]
	}
}

// dropParsedLocked forgets the replays whose key starts with prefix.
func (s *replayStore) dropParsedLocked(prefix string) {
	s.parsed = slices.DeleteFunc(s.parsed, func(p *parsedReplay) bool { return strings.HasPrefix(p.key, prefix) })
}

// verdict returns what the index found of the record file under key (its
// Game "" when no game reads it), and whether it was checked.
func (s *replayStore) verdict(key string) (sum recordSummary, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum, ok = s.verdicts[key]
	return sum, ok
}

// setVerdict remembers the index's check of a record file, forgetting every
// check past maxRecordVerdicts.
func (s *replayStore) setVerdict(key string, sum recordSummary) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.verdicts) >= maxRecordVerdicts {
		clear(s.verdicts)
	}
	s.verdicts[key] = sum
}

// acquire waits for a turn to run a heavy request (one that reads a record
// or draws a frame): at once when fewer than MaxHeavy run, else for at most
// HeavyWait. ok is false when no turn came; release ends the turn.
func (v *Viewer) acquire(ctx context.Context) (release func(), ok bool) {
	release = func() { <-v.heavy }
	select {
	case v.heavy <- struct{}{}:
		return release, true
	default:
	}
	if v.limits.HeavyWait <= 0 {
		return nil, false
	}
	t := time.NewTimer(v.limits.HeavyWait)
	defer t.Stop()
	select {
	case v.heavy <- struct{}{}:
		return release, true
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}

// busy is the error of a heavy request that got no turn.
func (v *Viewer) busy() *httpError {
	return &httpError{http.StatusServiceUnavailable, "The viewer is busy",
		fmt.Sprintf("The viewer is already reading or drawing %d replays, the most it does at once, and none ended within %v: try again in a moment.",
			v.limits.MaxHeavy, v.limits.HeavyWait)}
}
