package compaction

import (
	"context"

	"github.com/proflens/proflens/analysis"
)

// pathHashes sets path[n], for every call-tree node n of t, to the hash of
// its path of full names from the root: mix(FNV-1a(path[parent] '>' name)),
// FNV-1a from its offset basis for a root. Nodes are in pre-order, so a
// parent is hashed before its children. It gives up when ctx is done,
// looking at it every checkEvery nodes.
func pathHashes(ctx context.Context, t *analysis.Tree, path []uint64) error {
	for n := range path {
		if n%checkEvery == checkEvery-1 && ctx.Err() != nil {
			return ctx.Err()
		}
		h := uint64(fnvOffset)
		if p := t.Parent[n]; p >= 0 {
			h = fnvAdd(path[p], '>')
		}
		path[n] = mix(fnvString(h, t.Name(int32(n))))
	}
	return nil
}

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

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

func fnvString(h uint64, s string) uint64 {
	for k := 0; k < len(s); k++ {
		h = fnvAdd(h, s[k])
	}
	return h
}
