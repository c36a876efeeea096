package analysis

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Info summarises a loaded profile: what `load` and `info` print.
type Info struct {
	Source     string
	Format     string
	ValueTypes []ValueType
	Default    int     // index of the default value type
	Totals     []int64 // per value type, the sum over all samples
	Samples    int
	Stacks     int // distinct stacks
	Frames     int // distinct frames
	Nodes      int // call-tree nodes
	MaxDepth   int // deepest stack, in frames
	Duration   time.Duration
	Start      time.Time
	Timed      bool
	Intervals  int // profiles in a series; 0 for a single profile
	Threads    int // threads samples are attributed to
	Labels     []LabelKey
	Calls      int    // calls of an evented recording; 0 for sampled data
	Memory     string // the memory events, as memoryInfo says them; "" for none
	Warnings   []string
	Notes      []string
}

// NewInfo summarises p and its call tree t.
func NewInfo(p *Profile, t *Tree) Info {
	in := Info{
		Source: p.Source, Format: p.Format, ValueTypes: p.ValueTypes, Default: p.DefaultValue,
		Samples: len(p.Samples), Stacks: p.distinctStacks(), Frames: len(p.Frames), Nodes: t.Len(),
		Duration: p.Duration, Start: p.Start, Timed: p.Timed, Calls: len(p.Calls), Warnings: p.Warnings, Notes: p.Notes,
		Memory: memoryInfo(p),
	}
	if p.Intervals != nil {
		in.Intervals = len(p.Intervals) - 1
	}
	for v := range p.ValueTypes {
		in.Totals = append(in.Totals, p.Total(v))
	}
	in.Threads, in.Labels = len(p.Threads()), LabelKeys(p)
	for _, d := range t.Depth {
		in.MaxDepth = max(in.MaxDepth, int(d)+1)
	}
	return in
}

// Field is one line of a summary: a label and its value as text.
type Field struct {
	Label string
	Value string
}

// Fields lists the summary as label/value pairs, in a fixed order; empty
// facts (no duration, no warnings) are left out.
func (in Info) Fields() []Field {
	f := []Field{{"source", in.Source}, {"format", in.Format}}
	var types []string
	for i, vt := range in.ValueTypes {
		s := vt.Type + "/" + vt.Unit
		if i == in.Default {
			s += " (default)"
		}
		types = append(types, s)
	}
	f = append(f, Field{"value types", strings.Join(types, ", ")})
	var totals []string
	for i, vt := range in.ValueTypes {
		totals = append(totals, vt.Type+" "+FormatValue(in.Totals[i], vt.Unit))
	}
	f = append(f, Field{"total", strings.Join(totals, ", ")},
		Field{"samples", strconv.Itoa(in.Samples)},
		Field{"distinct stacks", strconv.Itoa(in.Stacks)},
		Field{"frames", strconv.Itoa(in.Frames)},
		Field{"call-tree nodes", strconv.Itoa(in.Nodes)},
		Field{"max depth", strconv.Itoa(in.MaxDepth)})
	if in.Intervals > 0 {
		f = append(f, Field{"profiles in series", strconv.Itoa(in.Intervals)})
	}
	if in.Threads > 1 {
		f = append(f, Field{"threads", strconv.Itoa(in.Threads) + " (see threads; thread= and process= select some)"})
	}
	if len(in.Labels) > 0 {
		keys := make([]string, len(in.Labels))
		for i, k := range in.Labels {
			keys[i] = k.String(in.Samples)
		}
		f = append(f, Field{"labels", strings.Join(keys, ", ") + "; tagfocus= and tagignore= select samples by them"})
	}
	if !in.Start.IsZero() {
		f = append(f, Field{"start", in.Start.UTC().Format(time.RFC3339)})
	}
	if in.Duration > 0 {
		f = append(f, Field{"duration", in.Duration.String()})
	}
	order := "no"
	if in.Timed {
		order = "yes"
	}
	f = append(f, Field{"time-ordered", order})
	if in.Calls > 0 {
		f = append(f, Field{"calls", strconv.Itoa(in.Calls) + " (an evented recording: exact entries and exits)"})
	}
	if in.Memory != "" {
		f = append(f, Field{"memory events", in.Memory})
	}
	for _, n := range in.Notes {
		f = append(f, Field{"note", n})
	}
	for _, w := range in.Warnings {
		f = append(f, Field{"warning", w})
	}
	return f
}

// String formats the summary as aligned "label: value" lines.
func (in Info) String() string {
	var b strings.Builder
	for _, f := range in.Fields() {
		fmt.Fprintf(&b, "%-16s %s\n", f.Label+":", f.Value)
	}
	return b.String()
}
