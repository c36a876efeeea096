package compaction

import "github.com/proflens/proflens/analysis"

// pathHashes sets path[n], for every call-tree node n of t, to the hash of
// its path of full names from the root: mix(FNV-1a(path[parent] '>' name)),
// FNV-1a from its offset basis for a root. FNV-1a is one multiply per byte,
// each waiting for the last, so the nodes are hashed two at a time, in two
// lanes that each follow a chain of first children while a stack holds the
// other children, every one of them ready (its parent hashed).
func pathHashes(t *analysis.Tree, path []uint64) {
	names := make([]string, len(t.Profile.Frames)) // small and dense, unlike the frames
	for f := range names {
		names[f] = t.Profile.Frames[f].Name
	}
	stack := make([]int32, 0, 64)
	for k := len(t.Roots) - 1; k >= 0; k-- {
		stack = append(stack, t.Roots[k])
	}
	a, b := int32(-1), int32(-1)
	for {
		if a < 0 && len(stack) > 0 {
			a, stack = stack[len(stack)-1], stack[:len(stack)-1]
		}
		if b < 0 && len(stack) > 0 {
			b, stack = stack[len(stack)-1], stack[:len(stack)-1]
		}
		switch {
		case a < 0 && b < 0:
			return
		case b < 0:
			path[a] = mix(fnvString(pathStart(t, path, a), names[t.Frame[a]]))
		case a < 0:
			path[b] = mix(fnvString(pathStart(t, path, b), names[t.Frame[b]]))
		default:
			ha, hb := fnvString2(pathStart(t, path, a), names[t.Frame[a]], pathStart(t, path, b), names[t.Frame[b]])
			path[a], path[b] = mix(ha), mix(hb)
		}
		a, stack = firstChild(t, a, stack)
		b, stack = firstChild(t, b, stack)
	}
}

// pathStart is the FNV-1a state node n's name continues: its parent's path
// hash and the separator, or the offset basis for a root.
func pathStart(t *analysis.Tree, path []uint64, n int32) uint64 {
	if p := t.Parent[n]; p >= 0 {
		return fnvAdd(path[p], '>')
	}
	return fnvOffset
}

// firstChild returns node n's first child (-1 for a leaf or n < 0) and
// stack with n's other children pushed.
func firstChild(t *analysis.Tree, n int32, stack []int32) (int32, []int32) {
	if n < 0 || t.Size[n] == 1 {
		return -1, stack
	}
	end := n + t.Size[n]
	for c := n + 1 + t.Size[n+1]; c < end; c += t.Size[c] {
		stack = append(stack, c)
	}
	return n + 1, stack
}

// fnvString2 is fnvString on two independent strings at once.
func fnvString2(ha uint64, a string, hb uint64, b string) (uint64, uint64) {
	n := min(len(a), len(b))
	a2, b2 := a[:n], b[:n]
	for k := range n {
		ha = (ha ^ uint64(a2[k])) * fnvPrime
		hb = (hb ^ uint64(b2[k])) * fnvPrime
	}
	return fnvString(ha, a[n:]), fnvString(hb, b[n:])
}
