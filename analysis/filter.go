package analysis

import (
	"regexp"
	"strings"
)

// Filter selects samples and frames as pprof's -focus, -ignore and -hide
// do; each regular expression is matched against a frame's name and its
// file, and a nil one does nothing:
//   - Focus keeps only samples with a frame matching it;
//   - Ignore drops samples with a frame matching it (it wins over Focus);
//   - Hide removes matching frames from every stack; a sample left with no
//     frame is dropped.
//
// Focus and Ignore look at the stack before Hide removes frames from it.
type Filter struct {
	Focus, Ignore, Hide *regexp.Regexp
}

// IsZero reports whether f keeps every sample and frame.
func (f Filter) IsZero() bool { return f.Focus == nil && f.Ignore == nil && f.Hide == nil }

// String returns f as options, "focus=RE ignore=RE hide=RE", leaving out
// the ones not set; "" for the zero Filter.
func (f Filter) String() string {
	var parts []string
	for _, o := range []struct {
		name string
		re   *regexp.Regexp
	}{{"focus", f.Focus}, {"ignore", f.Ignore}, {"hide", f.Hide}} {
		if o.re != nil {
			parts = append(parts, o.name+"="+o.re.String())
		}
	}
	return strings.Join(parts, " ")
}

// Filter returns p under f: a profile sharing p's samples, values, frames
// and metadata whose stacks are filtered, stack for stack, so stack and
// sample ids keep their meaning. A dropped sample keeps its values, time
// and thread with an empty stack: totals over all samples (pprof's report
// total) and the time line are those of p, while the call tree holds only
// what f keeps. The zero Filter returns p itself. Time is linear in the
// total length of p's stacks.
func (p *Profile) Filter(f Filter) *Profile {
	if f.IsZero() {
		return p
	}
	focus, ignore, hide := matchFrames(p, f.Focus), matchFrames(p, f.Ignore), matchFrames(p, f.Hide)
	q := *p
	q.Stacks = Stacks{ends: make([]int32, 0, p.Stacks.Len())}
	var kept []int32
	for _, st := range p.Stacks.All() {
		kept = kept[:0]
		if keepStack(st, focus, ignore, f.Focus != nil) {
			for _, fr := range st {
				if !hide[fr] {
					kept = append(kept, fr)
				}
			}
		}
		q.Stacks.add(kept)
	}
	return &q
}

// keepStack reports whether a sample with stack st passes focus and
// ignore: a frame matches focus (or there is no focus) and none matches
// ignore.
func keepStack(st []int32, focus, ignore []bool, hasFocus bool) bool {
	focused := !hasFocus
	for _, fr := range st {
		if ignore[fr] {
			return false
		}
		focused = focused || focus[fr]
	}
	return focused
}
