package jupyter

import "sync"

// replayGuard remembers the most recent signatures it has seen, to drop a
// message whose signature was already used (a replay). Memory is bounded: it
// forgets the oldest signature once it holds max of them, like
// jupyter_client's digest_history. Safe for concurrent use.
type replayGuard struct {
	mu   sync.Mutex
	max  int
	ring []string
	next int
	seen map[string]struct{}
}

func newReplayGuard(max int) *replayGuard {
	return &replayGuard{max: max, ring: make([]string, 0, max), seen: make(map[string]struct{}, max)}
}

// fresh records sig and reports whether it was new. An empty signature
// (signing off) is always fresh: there is nothing to compare.
func (g *replayGuard) fresh(sig []byte) bool {
	if len(sig) == 0 {
		return true
	}
	s := string(sig)
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, dup := g.seen[s]; dup {
		return false
	}
	if len(g.ring) < g.max {
		g.ring = append(g.ring, s)
	} else {
		delete(g.seen, g.ring[g.next])
		g.ring[g.next] = s
		g.next = (g.next + 1) % g.max
	}
	g.seen[s] = struct{}{}
	return true
}
