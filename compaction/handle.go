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

// assignHandles gives every node of v a handle: the first HandleLen hex
// digits of a 64-bit FNV-1a hash of its path of compacted names from the
// root. Handles that would collide in v all get one more digit, repeatedly,
// so a node's handle is its hash's shortest prefix, of at least HandleLen
// digits, that no other node's hash shares. It depends only on the set of
// paths, not on any order: the same node gets the same handle on every run
// and machine as long as no new colliding path appears. Time is
// O(n log n) for n nodes.
func assignHandles(v *View) {
	n := len(v.Nodes)
	hs := make([]uint64, n)
	for i := range v.Nodes {
		nd := &v.Nodes[i]
		h := uint64(fnvOffset)
		if nd.Parent >= 0 {
			h = fnvAdd(hs[nd.Parent], '>')
		}
		for k := 0; k < len(nd.Name); k++ {
			h = fnvAdd(h, nd.Name[k])
		}
		hs[i] = h
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(hs[a], hs[b]) })
	length := make([]uint8, n)
	total := 0
	for k, i := range order {
		shared := 0 // hex digits shared with a neighbour in hash order
		if k > 0 {
			shared = max(shared, bits.LeadingZeros64(hs[i]^hs[order[k-1]])/4)
		}
		if k+1 < n {
			shared = max(shared, bits.LeadingZeros64(hs[i]^hs[order[k+1]])/4)
		}
		length[i] = uint8(max(HandleLen, shared+1))
		total += int(length[i])
	}
	buf := make([]byte, 0, total)
	for i, h := range hs {
		var d [16]byte
		for k := 15; k >= 0; k-- {
			d[k] = "0123456789abcdef"[h&15]
			h >>= 4
		}
		buf = append(buf, d[:min(int(length[i]), 16)]...)
	}
	all := string(buf)
	at := 0
	for i := range v.Nodes {
		l := min(int(length[i]), 16)
		v.Nodes[i].Handle = all[at : at+l]
		at += l
		if length[i] > 16 { // equal 64-bit hashes: tell them apart by position
			v.Nodes[i].Handle += "-" + strconv.Itoa(i)
		}
	}
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
	for ; i >= 0; i = v.Nodes[i].Parent {
		parts = append(parts, v.Nodes[i].Name)
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return strings.Join(parts, " > ")
}

// Resolve finds the compacted node a TARGET names: a handle (a unique prefix
// of one is accepted), or a path of displayed names from a root joined by
// ">" (spaces around it optional). It returns the node's index, or -1 for
// "all", or an error saying what exists.
func (v *View) Resolve(target string) (int32, error) {
	target = strings.TrimSpace(target)
	switch {
	case target == "":
		return 0, fmt.Errorf("empty target: give a handle, a path like \"lib1 > lib2\", or all")
	case target == "all":
		return -1, nil
	case strings.Contains(target, ">"):
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

func (v *View) byHandle(h string) (int32, bool) {
	h = strings.ToLower(h)
	found := int32(-1)
	for i := range v.Nodes {
		nh := v.Nodes[i].Handle
		if nh == h {
			return int32(i), true
		}
		if strings.HasPrefix(nh, h) && len(h) >= HandleLen {
			if found >= 0 {
				return 0, false
			}
			found = int32(i)
		}
	}
	return found, found >= 0
}

func (v *View) resolvePath(target string) (int32, error) {
	parts := strings.Split(target, ">")
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
