package analysis

import (
	"slices"
	"strings"
)

// Recursion says which recursion to fold out of a profile's stacks, as the
// Firefox Profiler's collapse-recursion transforms do. Functions are named
// by their full frame names.
//
//   - Indirect: for each function named, the frames between its outermost
//     and its innermost call on a stack go, and its innermost call takes
//     the outermost one's place: A → B → C → B → D becomes A → B → D (the
//     Firefox Profiler's "collapse recursion").
//   - Direct: a call of a function named here by itself goes: B → B → B
//     becomes B, but B → C → B stays ("collapse direct recursion only").
//   - All and AllDirect do so for every function: after All, no function
//     occurs twice on a stack.
//
// The indirect folds come first, then the direct ones.
type Recursion struct {
	All, AllDirect   bool
	Indirect, Direct []string // sorted, without duplicates
}

// IsZero reports whether r folds nothing.
func (r Recursion) IsZero() bool {
	return !r.All && !r.AllDirect && len(r.Indirect) == 0 && len(r.Direct) == 0
}

// With returns r folding also the recursion of the functions names (of
// every function when all), directly only when direct.
func (r Recursion) With(names []string, all, direct bool) Recursion {
	out := r
	switch {
	case all && direct:
		out.AllDirect = true
	case all:
		out.All = true
	case direct:
		out.Direct = merged(r.Direct, names)
	default:
		out.Indirect = merged(r.Indirect, names)
	}
	return out
}

// merged returns the sorted union of a and b without duplicates.
func merged(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// String returns r as the collapse-recursion targets it folds: "all",
// "all direct", "NAME", "direct NAME", joined by ", "; "" for none.
func (r Recursion) String() string {
	var parts []string
	if r.All {
		parts = append(parts, "all")
	}
	if r.AllDirect {
		parts = append(parts, "all direct")
	}
	parts = append(parts, r.Indirect...)
	for _, n := range r.Direct {
		parts = append(parts, "direct "+n)
	}
	return strings.Join(parts, ", ")
}

// CollapseRecursion returns p with r folded out of its stacks: a profile
// sharing p's samples, values, frames and metadata whose stacks are folded
// stack for stack, as Filter's are, so each folded stack is a subsequence
// of p's and sample ids keep their meaning. The zero Recursion returns p
// itself. Time is linear in the total length of p's stacks.
func (p *Profile) CollapseRecursion(r Recursion) *Profile {
	if r.IsZero() {
		return p
	}
	indirect, direct := framesNamed(p, r.Indirect, r.All), framesNamed(p, r.Direct, r.AllDirect)
	fn, _, _ := functionIDs(p)
	q := *p
	q.given = nil // At on q must not see unfolded frames
	q.Stacks = Stacks{ends: make([]int32, 0, p.Stacks.Len())}
	at := map[int32]int{} // a folded function → its position in the folded stack
	var out []int32
	for _, st := range p.Stacks.All() {
		out = foldIndirect(st, fn, indirect, at, out[:0])
		out = foldDirect(out, fn, direct)
		q.Stacks.add(out)
	}
	return &q
}

// framesNamed marks the frames of p named in names (sorted), or every frame
// when all.
func framesNamed(p *Profile, names []string, all bool) []bool {
	m := make([]bool, len(p.Frames))
	for i := range p.Frames {
		_, named := slices.BinarySearch(names, p.Frames[i].Name)
		m[i] = all || named
	}
	return m
}

// foldIndirect appends st to out, root first, cutting back to the earlier
// call whenever a function marked in fold is called again: what follows
// its outermost call is then what follows its innermost one.
func foldIndirect(st, fn []int32, fold []bool, at map[int32]int, out []int32) []int32 {
	clear(at)
	for _, f := range st {
		if !fold[f] {
			out = append(out, f)
			continue
		}
		if i, ok := at[fn[f]]; ok {
			for _, g := range out[i+1:] {
				delete(at, fn[g])
			}
			out = out[:i]
		}
		at[fn[f]] = len(out)
		out = append(out, f)
	}
	return out
}

// foldDirect drops, in place, each frame marked in fold whose function is
// that of the frame before it.
func foldDirect(st, fn []int32, fold []bool) []int32 {
	out := st[:0]
	prev := int32(-1)
	for _, f := range st {
		if !fold[f] || fn[f] != prev {
			out = append(out, f)
		}
		prev = fn[f]
	}
	return out
}
