package compaction

import "github.com/proflens/proflens/analysis"

// pathHashes sets path[n], for every call-tree node n of t, to the hash of
// its path of full names from the root: mix(FNV-1a(path[parent] '>' name)),
// FNV-1a from its offset basis for a root. Nodes are in pre-order, so a
// parent is hashed before its children.
func pathHashes(t *analysis.Tree, path []uint64) {
	for n := range path {
		h := uint64(fnvOffset)
		if p := t.Parent[n]; p >= 0 {
			h = fnvAdd(path[p], '>')
		}
		path[n] = mix(fnvString(h, t.Name(int32(n))))
	}
}
