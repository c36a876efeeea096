package analysis

import (
	"regexp"
	"slices"
	"strings"
)

// Filter selects samples and frames as pprof's -focus, -ignore, -hide,
// -tagfocus and -tagignore do, and samples by thread; a nil field does
// nothing:
//   - Focus keeps only samples with a frame matching it (name or file);
//   - Ignore drops samples with a frame matching it (it wins over Focus);
//   - Hide removes matching frames from every stack; a sample left with no
//     frame is dropped;
//   - Thread and Process keep only samples of a thread whose id (for
//     Process, its process's id) is the expression, when it is an integer,
//     else whose name (its process's name) the expression matches;
//   - TagFocus keeps, TagIgnore drops, the samples whose labels match.
//
// Focus and Ignore look at the stack before Hide removes frames from it.
type Filter struct {
	Focus, Ignore, Hide *regexp.Regexp
	Thread, Process     *regexp.Regexp
	TagFocus, TagIgnore *TagFilter
}

// IsZero reports whether f keeps every sample and frame.
func (f Filter) IsZero() bool {
	return f.Focus == nil && f.Ignore == nil && f.Hide == nil && !f.bySample()
}

// bySample reports whether f selects samples by more than their stacks.
func (f Filter) bySample() bool {
	return f.Thread != nil || f.Process != nil || f.TagFocus != nil || f.TagIgnore != nil
}

// Options returns f as option names and values, in the order of String,
// leaving out the ones not set.
func (f Filter) Options() [][2]string {
	var out [][2]string
	for _, o := range []struct {
		name string
		re   *regexp.Regexp
	}{{"focus", f.Focus}, {"ignore", f.Ignore}, {"hide", f.Hide}, {"thread", f.Thread}, {"process", f.Process}} {
		if o.re != nil {
			out = append(out, [2]string{o.name, o.re.String()})
		}
	}
	for _, o := range []struct {
		name string
		tf   *TagFilter
	}{{"tagfocus", f.TagFocus}, {"tagignore", f.TagIgnore}} {
		if o.tf != nil {
			out = append(out, [2]string{o.name, o.tf.String()})
		}
	}
	return out
}

// String returns f as options, "focus=RE ignore=RE hide=RE thread=RE
// process=RE tagfocus=F tagignore=F", leaving out the ones not set; "" for
// the zero Filter.
func (f Filter) String() string {
	var parts []string
	for _, o := range f.Options() {
		parts = append(parts, o[0]+"="+o[1])
	}
	return strings.Join(parts, " ")
}

// Filter returns p under f: a profile sharing p's values, frames and
// metadata whose stacks are filtered, stack for stack, and whose samples
// are those of p, so stack and sample ids keep their meaning. A dropped
// sample keeps its values, time and thread with an empty stack (a stack
// of its own, after p's, when the sample is dropped for its thread or
// labels): totals over all samples (pprof's report total) and the time
// line are those of p, while the call tree holds only what f keeps. The
// zero Filter returns p itself. Time is linear in the total length of p's
// stacks, and in its samples when f selects by thread or label.
func (p *Profile) Filter(f Filter) *Profile {
	if f.IsZero() {
		return p
	}
	q := *p
	q.given = nil // At on q must not see unfiltered frames
	if f.Focus != nil || f.Ignore != nil || f.Hide != nil {
		q.Stacks = filterStacks(p, f)
	}
	if f.bySample() {
		dropSamples(&q, f)
	}
	return &q
}

// filterStacks returns p's stacks under f's focus, ignore and hide.
func filterStacks(p *Profile, f Filter) Stacks {
	focus, ignore, hide := matchFrames(p, f.Focus), matchFrames(p, f.Ignore), matchFrames(p, f.Hide)
	out := Stacks{ends: make([]int32, 0, p.Stacks.Len()+1)}
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
		out.add(kept)
	}
	return out
}

// dropSamples gives q a copy of its samples in which those that f's
// thread, process and tag filters drop have an empty stack, added after
// q's stacks; a stack that no kept sample has becomes empty, so that the
// call tree holds only what is kept.
func dropSamples(q *Profile, f Filter) {
	threads := matchThreads(q, f.Thread, f.Process)
	q.Samples = slices.Clone(q.Samples)
	keep := make([]bool, len(q.Samples))
	used := make([]bool, q.Stacks.Len())
	for i := range q.Samples {
		s := &q.Samples[i]
		keep[i] = threads == nil || threads[s.thread]
		if keep[i] && (f.TagFocus != nil || f.TagIgnore != nil) {
			labels := q.Labels(s)
			keep[i] = (f.TagFocus == nil || f.TagFocus.Match(labels, q.NumLabelUnits)) &&
				(f.TagIgnore == nil || !f.TagIgnore.Match(labels, q.NumLabelUnits))
		}
		used[s.Stack] = used[s.Stack] || keep[i]
	}
	st := Stacks{ends: make([]int32, 0, q.Stacks.Len()+1)}
	for id, frames := range q.Stacks.All() {
		if !used[id] {
			frames = nil
		}
		st.add(frames)
	}
	empty := st.add(nil)
	for i := range q.Samples {
		if !keep[i] {
			q.Samples[i].Stack = empty
		}
	}
	q.Stacks = st
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
