package analysis

import (
	"context"
	"fmt"
)

// Limits bound the model that one load may build, so that a small input (a
// gzipped pprof of a few MB can hold hundreds of millions of samples) cannot
// take the machine's memory. A zero field means its default. The Builder
// checks them as the model grows, whatever the format, and the load fails
// with a *LimitError naming the limit and the option that raises it.
//
// The defaults are far above real profiles (the largest of the shared
// corpus has 50,294 samples, 23,038 frames, stacks 190 deep; the 1M-sample
// benchmark profile of gen.Default has 1M samples, 50,001 frames and 4.8M
// stack frames), and a model at all of them at once stays within a few GB.
type Limits struct {
	Samples     int64 // sample records; sample values (records × value types) may reach 4 × Samples
	Frames      int64 // distinct frames (functions, inlined ones included)
	Depth       int64 // frames in one stack
	StackFrames int64 // frames over all distinct stacks (the call tree has at most as many nodes)
	Labels      int64 // label values over all samples
}

// DefaultLimits are the limits of a load that sets none.
var DefaultLimits = Limits{
	Samples:     10_000_000,
	Frames:      2_000_000,
	Depth:       65_536,
	StackFrames: 20_000_000,
	Labels:      10_000_000,
}

// orDefault returns l with each zero field set to its default.
func (l Limits) orDefault() Limits {
	pick := func(v, def int64) int64 {
		if v > 0 {
			return v
		}
		return def
	}
	d := DefaultLimits
	return Limits{pick(l.Samples, d.Samples), pick(l.Frames, d.Frames), pick(l.Depth, d.Depth),
		pick(l.StackFrames, d.StackFrames), pick(l.Labels, d.Labels)}
}

// LimitError is a load refused because its model would pass a limit.
type LimitError struct {
	File   string
	What   string // what passed the limit: "samples", "distinct frames", ...
	Max    int64
	Option string // the load option that raises the limit: "max-samples"
}

// Error gives "FILE: more than MAX WHAT (set OPTION= to raise the limit)".
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: more than %d %s (set %s= to raise the limit)", e.File, e.Max, e.What, e.Option)
}

// interrupt watches a context from a hot loop: done looks at the context
// once every 4096 calls, so that a loop can call it for every item.
type interrupt struct {
	ctx context.Context // nil: never done
	n   int
	err error
}

// done reports whether the context has ended (err then says why).
func (c *interrupt) done() bool {
	if c.n++; c.err == nil && c.ctx != nil && c.n&4095 == 0 {
		c.err = c.ctx.Err()
	}
	return c.err != nil
}

// less returns what l leaves once p is counted against it (depth aside,
// which is per stack).
func (l Limits) less(p *Profile) Limits {
	var frames int64
	for _, st := range p.Stacks.All() {
		frames += int64(len(st))
	}
	var labels int64
	for i := range p.Samples {
		for _, vs := range p.Labels(&p.Samples[i]) {
			labels += int64(max(1, len(vs)))
		}
	}
	return Limits{l.Samples - int64(len(p.Samples)), l.Frames - int64(len(p.Frames)), l.Depth,
		l.StackFrames - frames, l.Labels - labels}
}

// exhausted returns a *LimitError for the first of l's counts that has
// gone below zero, of the limits of; nil while none has.
func (l Limits) exhausted(file string, of Limits) error {
	for _, c := range []struct {
		left, max int64
		what      limitName
	}{{l.Samples, of.Samples, samplesLimit}, {l.Frames, of.Frames, framesLimit},
		{l.StackFrames, of.StackFrames, stackFramesLimit}, {l.Labels, of.Labels, labelsLimit}} {
		if c.left < 0 {
			return c.what.error(file, c.max)
		}
	}
	return nil
}

// limitName says what a limit counts and which load option raises it.
type limitName struct{ what, option string }

var (
	samplesLimit     = limitName{"samples", "max-samples"}
	valuesLimit      = limitName{"sample values (4 × max-samples)", "max-samples"}
	framesLimit      = limitName{"distinct frames", "max-frames"}
	depthLimit       = limitName{"frames in one stack", "max-depth"}
	stackFramesLimit = limitName{"frames over all distinct stacks", "max-stack-frames"}
	labelsLimit      = limitName{"label values", "max-labels"}
)

func (n limitName) error(file string, max int64) *LimitError {
	return &LimitError{File: file, What: n.what, Max: max, Option: n.option}
}
