package jupyter

import (
	"crypto/sha256"
	"sync"
)

// replayGuard remembers the digests of the most recent signatures it has
// seen, to drop a message whose signature was already used (a replay).
// Memory is bounded: it keeps max digests of a fixed size, whatever size a
// client's signature frame has, and forgets the oldest first, like
// jupyter_client's digest_history. Safe for concurrent use.
type replayGuard struct {
	mu   sync.Mutex
	max  int
	ring [][sha256.Size]byte
	next int // the ring slot to overwrite next once the ring is full
	seen map[[sha256.Size]byte]struct{}
}

func newReplayGuard(max int) *replayGuard {
	return &replayGuard{max: max, ring: make([][sha256.Size]byte, 0, max), seen: make(map[[sha256.Size]byte]struct{}, max)}
}

// fresh records sig and reports whether it was new.
func (g *replayGuard) fresh(sig []byte) bool {
	d := sha256.Sum256(sig)
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, dup := g.seen[d]; dup {
		return false
	}
	if len(g.ring) < g.max {
		g.ring = append(g.ring, d)
	} else {
		delete(g.seen, g.ring[g.next])
		g.ring[g.next] = d
		g.next = (g.next + 1) % g.max
	}
	g.seen[d] = struct{}{}
	return true
}
