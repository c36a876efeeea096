package compaction

import (
	"cmp"
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
// first seed (hashFresh), that no other node's hash in the view shares:
// handles that would collide all get one more digit, repeatedly. So a
// handle names a compacted node by what it shows and where it starts in the
// call tree; it does not depend on any order, is the same on every run and
// machine, and survives steps elsewhere in the view, but for a digit more
// or less when a node whose hash shares its prefix comes or goes. Two nodes
// with equal 64-bit hashes are told apart by their first seed (a call-tree
// node id). A view keeps the hashes in order and each node's handle
// length; Handle cuts the string when it is asked for.

// startHash is the hash a node's handle is cut from: of its name and of
// where it starts in the call tree, the full path of its first seed (a
// node's smallest member is a seed, as members descend from seeds and ids
// are in pre-order).
func startHash(ix *index, first int32, name string) uint64 {
	return mix(fnvString(fnvAdd(ix.path[first], '|'), name))
}

// sortAllHashes sets the hash order and every node's handle length.
func (v *View) sortAllHashes() {
	ids := make([]int32, len(v.Nodes))
	for i := range ids {
		ids[i] = int32(i)
	}
	v.byHash, v.sorted = v.sortHashes(ids)
	v.hlen = make([]uint8, len(v.Nodes))
	v.allHandles()
}

// sortHashes returns ids ordered by (hash, id) and the hashes in that
// order.
func (v *View) sortHashes(ids []int32) ([]int32, []uint64) {
	hash := make([]uint64, len(ids))
	for k, i := range ids {
		hash[k] = v.Nodes[i].hash
	}
	order, sorted := sortHashes(hash)
	for k, o := range order {
		order[k] = ids[o]
	}
	return order, sorted
}

// sortHashes returns the positions of hash ordered by (hash, position) and
// the hashes in that order.
func sortHashes(hash []uint64) ([]int32, []uint64) {
	order, sorted := make([]int32, len(hash)), make([]uint64, len(hash))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		return cmp.Or(cmp.Compare(hash[x], hash[y]), cmp.Compare(x, y))
	})
	for k, i := range order {
		sorted[k] = hash[i]
	}
	return order, sorted
}

// handleLengths sets the handle lengths of the nodes at the given
// positions of v.byHash (ascending; those out of range are ignored).
func (v *View) handleLengths(positions []int32) {
	n := int32(len(v.byHash))
	for _, k := range positions {
		if k >= 0 && k < n {
			v.hlen[v.byHash[k]] = uint8(v.handleLen(k))
		}
	}
}

// allHandles sets every node's handle length.
func (v *View) allHandles() {
	for k, i := range v.byHash {
		v.hlen[i] = uint8(v.handleLen(int32(k)))
	}
}

// Handle returns node i's handle: the first hex digits of its hash, as
// many as its handle length, and when another node's hash is the same, a
// dash and its first seed, which tells the two apart.
func (v *View) Handle(i int32) string {
	nd := v.Nodes[i]
	l := HandleLen // a view made by hand, in a test, has no lengths
	if int(i) < len(v.hlen) {
		l = int(v.hlen[i])
	}
	var d [16]byte
	h := appendHex(d[:0], nd.hash, l)
	if l > 16 {
		h = append(append(h, '-'), strconv.Itoa(int(nd.Members[0]))...)
	}
	return string(h)
}

// appendHex appends the first min(l, 16) hex digits of h to buf.
func appendHex(buf []byte, h uint64, l int) []byte {
	var d [16]byte
	for k := 15; k >= 0; k-- {
		d[k] = "0123456789abcdef"[h&15]
		h >>= 4
	}
	return append(buf, d[:min(l, 16)]...)
}

// handleLen returns the handle length of the node at position k of
// v.byHash: one more than the hex digits its hash shares with a neighbour's,
// and at least HandleLen.
func (v *View) handleLen(k int32) int {
	h := v.sorted[k]
	shared := 0
	if k > 0 {
		shared = bits.LeadingZeros64(h^v.sorted[k-1]) / 4
	}
	if k+1 < int32(len(v.sorted)) {
		shared = max(shared, bits.LeadingZeros64(h^v.sorted[k+1])/4)
	}
	return max(handleMin, shared+1)
}

// handleMin is HandleLen, lowered by tests to make collisions common.
var handleMin = HandleLen

// mix is the finalizer of splitmix64: FNV-1a alone leaves names that
// differ only in their last byte with equal high bits, which would make
// long handles for siblings like lib3.A and lib3.C.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

func fnvString(h uint64, s string) uint64 {
	for k := 0; k < len(s); k++ {
		h = fnvAdd(h, s[k])
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

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

// Resolve finds the compacted node a TARGET names: a handle (a unique prefix
// of one, of at least HandleLen digits, is accepted), or a path of displayed
// names from a root joined by " > " (a single name is a path too; names may
// hold ">" themselves, as C++ templates do). It returns the node's index,
// or -1 for "all", or an error saying what exists.
func (v *View) Resolve(target string) (int32, error) {
	target = strings.TrimSpace(target)
	switch {
	case target == "":
		return 0, fmt.Errorf("empty target: give a handle, a path like \"lib1 > lib2\", or all")
	case target == "all":
		return -1, nil
	case strings.Contains(target, " > "):
		return v.resolvePath(target)
	}
	if i, ok := v.byHandle(target); ok {
		return i, nil
	}
	// A single name is a path of length one.
	if i, err := v.resolvePath(target); err == nil {
		return i, nil
	}
	return 0, fmt.Errorf("no compacted node has handle or name %q (run view to list the handles)", target)
}

// byHandle finds the node whose handle is h, or else the only one whose
// handle starts with h (at least HandleLen digits). A handle is a prefix of
// its node's hash in hex, so the candidates are a range of v.sorted.
func (v *View) byHandle(h string) (int32, bool) {
	h = strings.ToLower(h)
	lo, hi := 0, len(v.sorted)
	if p, err := strconv.ParseUint(h, 16, 64); err == nil && len(h) <= 16 {
		shift := uint(64 - 4*len(h))
		first := p << shift
		lo, _ = slices.BinarySearch(v.sorted, first)
		hi = lo
		for hi < len(v.sorted) && v.sorted[hi]>>shift == p {
			hi++
		}
	}
	found := int32(-1)
	for _, i := range v.byHash[lo:hi] {
		nh := v.Handle(i)
		if nh == h {
			return i, true
		}
		if strings.HasPrefix(nh, h) && len(h) >= HandleLen {
			if found >= 0 {
				return 0, false
			}
			found = i
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

// mergeByHash sets nv.byHash and nv.sorted: v's order for the nodes nv
// keeps, merged with the new nodes' (ids fresh, hashes hash), n in all.
// dropped lists the ids v had and nv does not. It returns the positions whose neighbours changed, where handle
// lengths must be recomputed, ascending and each once. The unchanged runs
// between a dropped node and a new one are copied in bulk.
func mergeByHash(v, nv *View, fresh []int32, hash []uint64, dropped []int32, n int) (dirty []int32) {
	order, fh := sortHashes(hash)
	fj := order
	for k, o := range order {
		fj[k] = fresh[o]
	}
	// Where each dropped node is in v's order, ascending: found in their
	// own (hash, id) order by galloping forward from the last one, which
	// reads v's order in one sweep rather than at random.
	dOrder, dSorted := v.sortHashes(dropped)
	for k := 1; k < len(dSorted); k++ { // dropped is not ascending: equal hashes go by id, as in v's order
		for j := k; j > 0 && dSorted[j] == dSorted[j-1] && dOrder[j] < dOrder[j-1]; j-- {
			dOrder[j], dOrder[j-1] = dOrder[j-1], dOrder[j]
		}
	}
	gone := make([]int, len(dropped))
	for k, q := 0, 0; k < len(gone); k++ {
		q += gallop(v.sorted[q:], v.byHash[q:], dSorted[k], dOrder[k])
		gone[k] = q
		q++
	}
	out, sorted := make([]int32, n), make([]uint64, n)
	// A removed node makes its two neighbours dirty; a new one itself and
	// its two neighbours. Positions are added in ascending runs whose
	// starts never go down, so one past the last added one is new.
	last := int32(-2)
	mark := func(lo, hi int32) {
		for q := max(lo, last+1); q <= hi; q++ {
			dirty = append(dirty, q)
		}
		last = max(last, hi)
	}
	at, q, f, d := 0, 0, 0, 0
	for {
		// The next event: a dropped old node at gone[d], or a new node
		// before old position next.
		next := len(v.byHash)
		if f < len(fh) {
			next = q + gallop(v.sorted[q:], v.byHash[q:], fh[f], fj[f])
		}
		if d < len(gone) && gone[d] < next {
			next = gone[d]
		}
		at += copy(out[at:], v.byHash[q:next])
		copy(sorted[at-(next-q):], v.sorted[q:next])
		q = next
		switch {
		case d < len(gone) && gone[d] == q:
			mark(int32(at)-1, int32(at))
			q++
			d++
		case f < len(fh):
			mark(int32(at)-1, int32(at)+1)
			out[at], sorted[at] = fj[f], fh[f]
			at++
			f++
		default:
			nv.byHash, nv.sorted = out[:at], sorted[:at]
			return dirty
		}
	}
}

// gallop is sortSearch for a pair expected near the start: it doubles a
// bound until it passes (h, i), then searches below it.
func gallop(sorted []uint64, ids []int32, h uint64, i int32) int {
	hi := 1
	for hi < len(sorted) && (sorted[hi-1] < h || sorted[hi-1] == h && ids[hi-1] < i) {
		hi *= 2
	}
	hi = min(hi, len(sorted))
	lo := hi / 2
	return lo + sortSearch(sorted[lo:hi], ids[lo:hi], h, i)
}

// sortSearch returns the number of (hash, id) pairs in sorted, ids that
// come before (h, i).
func sortSearch(sorted []uint64, ids []int32, h uint64, i int32) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] < h || sorted[m] == h && ids[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
