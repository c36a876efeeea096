package compaction

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// HandleLen is the usual length of a handle in hex digits; handles that
// would collide within a view are lengthened together, one digit at a time.
const HandleLen = 4

// Handles. A node's handle is the shortest prefix, of at least HandleLen
// hex digits, of a 64-bit hash of its name and of the full call path of its
// first seed (startHash), that no other node's hash in the view shares. So
// a handle names a compacted node by what it shows and where it starts in
// the call tree; it does not depend on any order, is the same on every run
// and machine, and survives steps elsewhere in the view, but for a digit
// more or less when a node whose hash shares its prefix comes or goes. Two
// nodes with equal 64-bit hashes are told apart by their first seed (a
// call-tree node id). A view keeps its nodes' hashes sorted, where a
// hash's neighbours are the ones it shares the most digits with.

// startHash is the hash a node's handle is cut from: of its name and of
// where it starts in the call tree, the full path of its first seed (a
// node's smallest member is a seed, as members descend from seeds and ids
// are in pre-order).
func startHash(ix *index, first int32, name string) uint64 {
	return mix(fnvString(fnvAdd(ix.path[first], '|'), name))
}

// sortHashes sets v.sorted: every node's hash, in order.
func (v *View) sortHashes() {
	v.sorted = make([]uint64, len(v.Nodes))
	for i, nd := range v.Nodes {
		v.sorted[i] = nd.hash
	}
	radixSort(v.sorted)
}

// radixSort sorts hashes by their bytes, the lowest first, each pass
// stable: linear in the number of hashes, where a comparison sort is not.
func radixSort(hs []uint64) {
	buf := make([]uint64, len(hs))
	for shift := 0; shift < 64; shift += 8 {
		var start [257]int // where each byte value's hashes go
		for _, h := range hs {
			start[h>>shift&0xff+1]++
		}
		for b := 1; b < len(start); b++ {
			start[b] += start[b-1]
		}
		for _, h := range hs {
			buf[start[h>>shift&0xff]] = h
			start[h>>shift&0xff]++
		}
		hs, buf = buf, hs // after eight passes, the caller's slice again
	}
}

// mergeHashes returns the sorted hashes old, less drop and plus add (both
// sorted here); drop must be among old. The runs of old between two
// changes are copied whole.
func mergeHashes(old, drop, add []uint64) []uint64 {
	radixSort(drop)
	radixSort(add)
	out := make([]uint64, 0, len(old)-len(drop)+len(add))
	for len(drop) > 0 || len(add) > 0 {
		k := 0
		if len(drop) == 0 || len(add) > 0 && add[0] < drop[0] {
			for k < len(old) && old[k] < add[0] {
				k++
			}
			out = append(append(out, old[:k]...), add[0])
			old, add = old[k:], add[1:]
		} else {
			for old[k] != drop[0] {
				k++
			}
			out = append(out, old[:k]...)
			old, drop = old[k+1:], drop[1:]
		}
	}
	return append(out, old...)
}

// Handle returns node i's handle: the first hex digits of its hash, as
// many as its handle length, and when another node's hash is the same, a
// dash and its first seed, which tells the two apart.
func (v *View) Handle(i int32) string {
	nd := v.Nodes[i]
	l := v.handleLen(nd.hash)
	h := fmt.Sprintf("%016x", nd.hash)[:min(l, 16)]
	if l > 16 {
		h += "-" + strconv.Itoa(int(nd.Members[0]))
	}
	return h
}

// handleLen returns the handle length of a node whose hash is h: one more
// than the hex digits h shares with its neighbours in v.sorted, at least
// HandleLen, and 17 when a neighbour is h itself.
func (v *View) handleLen(h uint64) int {
	lo, _ := slices.BinarySearch(v.sorted, h) // h itself, in a view's own nodes
	shared := 0
	if lo > 0 {
		shared = bits.LeadingZeros64(h^v.sorted[lo-1]) / 4
	}
	if lo+1 < len(v.sorted) {
		shared = max(shared, bits.LeadingZeros64(h^v.sorted[lo+1])/4)
	}
	return max(HandleLen, shared+1)
}

// Path returns the displayed names from a root down to node i, joined by
// " > ": the path form of a TARGET.
func (v *View) Path(i int32) string {
	var parts []string
	for ; i >= 0; i = v.Parent(i) {
		parts = append(parts, v.Nodes[i].Name)
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return strings.Join(parts, " > ")
}

// Resolve finds the one compacted node a TARGET names (Find, One): a
// handle (a unique prefix of one, of at least HandleLen digits, is
// accepted), a path of displayed names from a root joined by " > " (names
// may hold ">" themselves, as C++ templates do), a displayed name or a
// unique end of one at one place. It returns the node's index, or -1 for
// "all", or an error saying what exists.
func (v *View) Resolve(target string) (int32, error) {
	f, err := v.Find(target)
	if err != nil {
		return 0, err
	}
	return v.One(strings.TrimSpace(target), f)
}

// byHandle finds the node whose handle is h, or else the only one whose
// handle starts with h (at least HandleLen digits). Time is linear in the
// view: only nodes whose hash starts with h's digits are candidates.
func (v *View) byHandle(h string) (int32, bool) {
	h = strings.ToLower(h)
	digits, _, _ := strings.Cut(h, "-")
	p, err := strconv.ParseUint(digits, 16, 64)
	if err != nil || len(digits) < HandleLen || len(digits) > 16 {
		return -1, false
	}
	shift := uint(64 - 4*len(digits))
	found := int32(-1)
	for i, nd := range v.Nodes {
		if nd.hash>>shift != p {
			continue
		}
		nh := v.Handle(int32(i))
		if nh == h {
			return int32(i), true
		}
		if strings.HasPrefix(nh, h) {
			if found >= 0 {
				return -1, false
			}
			found = int32(i)
		}
	}
	return found, found >= 0
}

func (v *View) resolvePath(target string) (int32, error) {
	parts := strings.Split(target, " > ")
	level := v.Roots
	cur := int32(-1)
	for k, p := range parts {
		p = strings.TrimSpace(p)
		next := int32(-1)
		for _, c := range level {
			if v.Nodes[c].Name == p {
				next = c
				break
			}
		}
		if next < 0 {
			where := "at the top"
			if cur >= 0 {
				where = "under " + v.Path(cur)
			}
			return 0, fmt.Errorf("path %q: no node named %q %s (there: %s)", target, p, where, v.names(level))
		}
		cur = next
		if k < len(parts)-1 {
			level = v.Nodes[cur].Children
		}
	}
	return cur, nil
}

// names lists the names of nodes, at most eight.
func (v *View) names(nodes []int32) string {
	var b strings.Builder
	for i, n := range nodes {
		if i == 8 {
			fmt.Fprintf(&b, ", … %d more", len(nodes)-8)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Nodes[n].Name)
	}
	if len(nodes) == 0 {
		return "nothing"
	}
	return b.String()
}
