package chrome

import "sort"

// Spans that overlap without nesting.
//
// The trace-event format asks the spans of one thread to nest: a span that
// begins inside another ends inside it. Some writers break this (a build
// tool that records concurrent asynchronous work under one thread id). The
// trace viewers never stretch a span beyond its own duration: catapult's
// slice grouping puts a slice that its open parent does not contain under
// the nearest ancestor that does, or at the top level; Perfetto shows such
// slices as they are and names improper nesting an error of the trace. Here
// a span always keeps its own duration, and a span that begins inside an
// open span of its track but ends after it goes to the next track of its
// thread where it nests (a new track when none does). Tracks are threads of
// the profile ("…, track 2"), so that no instant of a track is counted
// twice: a track's calls nest, and its roots add up to its busy time.
//
// Spans are placed in order of their begins. At equal begins a B/E span
// whose E came in the file before the other's B goes first (it ended
// before the other began); otherwise the longer span goes first, as the
// outer one; of two equal spans a B/E span goes outside an X event (as in
// speedscope); otherwise the file's order decides. A span ending at t and
// one beginning at t are siblings.

// layOut sorts spans in the order they are placed, gives each its track
// and parent, and returns the number of tracks (1 when every span nests).
func layOut(spans []*span) int {
	sort.SliceStable(spans, func(i, j int) bool { return placedBefore(spans[i], spans[j]) })
	var tracks [][]*span // per track, its open spans, outermost first
	for _, s := range spans {
		t := 0
		for ; t < len(tracks); t++ {
			st := tracks[t]
			for len(st) > 0 && st[len(st)-1].end <= s.begin {
				st = st[:len(st)-1]
			}
			tracks[t] = st
			if len(st) == 0 || st[len(st)-1].end >= s.end {
				break
			}
		}
		if t == len(tracks) {
			tracks = append(tracks, nil)
		}
		if st := tracks[t]; len(st) > 0 {
			s.parent = st[len(st)-1]
		}
		s.track = t
		tracks[t] = append(tracks[t], s)
	}
	return max(len(tracks), 1)
}

// placedBefore orders spans for layOut.
func placedBefore(a, b *span) bool {
	switch {
	case a.begin != b.begin:
		return a.begin < b.begin
	case a.endAt >= 0 && a.endAt < b.beginAt:
		return true
	case b.endAt >= 0 && b.endAt < a.beginAt:
		return false
	case a.end != b.end:
		return a.end > b.end
	case a.x != b.x:
		return b.x
	}
	return a.beginAt < b.beginAt
}
