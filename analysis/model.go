package analysis

import (
	"slices"
	"time"
)

// ValueType names one kind of value a sample carries, with its unit
// ("samples"/"count", "cpu"/"nanoseconds", "alloc_space"/"bytes").
type ValueType struct {
	Type string
	Unit string
}

// Frame is one function (or method) in a stack. Inlined frames are frames
// of their own.
type Frame struct {
	Name string // full, qualified name as the profile spells it
	File string
	Line int64
}

// Sample is one observation. Its stack is an index into Profile.Stacks, so
// that a million samples over a hundred thousand distinct stacks cost one
// stack each.
type Sample struct {
	Stack  int32   // index into Profile.Stacks
	Values []int64 // one per Profile.ValueTypes
	Time   int64   // nanoseconds since Profile.Start; meaningful when Profile.Timed
	Thread string  // thread or goroutine label, "" when unknown
	Labels map[string][]string
}

// Profile is the loaded form of every supported format. It is built by a
// Builder and not modified afterwards.
type Profile struct {
	Source  string // file the profile came from, as the user named it
	Format  string // loader that read it: "pprof", "folded", "hprof", "perf", "v8", "chrome", "speedscope", "series"
	Lang    Lang   // language of the frame names, chosen by the loader (LangAuto: guess per name)
	Comment []string

	ValueTypes   []ValueType
	DefaultValue int // index into ValueTypes shown when the user does not choose

	Frames  []Frame
	Stacks  [][]int32 // distinct stacks, frame ids root → leaf
	Samples []Sample

	Period     int64
	PeriodType ValueType
	Start      time.Time     // zero when unknown
	Duration   time.Duration // zero when unknown
	Timed      bool          // samples carry times and are in time order

	// Intervals, for a series of profiles: the sample indices [Intervals[i], Intervals[i+1])
	// belong to profile i of the series. Nil for a single profile.
	Intervals []int
	// IntervalNames names each profile of a series.
	IntervalNames []string

	Warnings []string
}

// ValueIndex returns the index of the value type named t, or -1.
func (p *Profile) ValueIndex(t string) int {
	for i, vt := range p.ValueTypes {
		if vt.Type == t {
			return i
		}
	}
	return -1
}

// Total returns the sum of value v over all samples.
func (p *Profile) Total(v int) int64 {
	var t int64
	for i := range p.Samples {
		t += p.Samples[i].Values[v]
	}
	return t
}

// Builder assembles a Profile, interning frames and stacks.
type Builder struct {
	p      *Profile
	frames map[Frame]int32
	stacks map[string]int32
	key    []byte
	last   int64
}

// NewBuilder starts a profile with the given value types.
func NewBuilder(format string, types ...ValueType) *Builder {
	return &Builder{
		p:      &Profile{Format: format, ValueTypes: types, Timed: true},
		frames: make(map[Frame]int32),
		stacks: make(map[string]int32),
	}
}

// Profile gives access to the profile's metadata fields while building
// (Source, Period, Start, Duration, Lang, DefaultValue, Warnings...).
func (b *Builder) Profile() *Profile { return b.p }

// Frame interns a frame and returns its id.
func (b *Builder) Frame(f Frame) int32 {
	if id, ok := b.frames[f]; ok {
		return id
	}
	id := int32(len(b.p.Frames))
	b.p.Frames = append(b.p.Frames, f)
	b.frames[f] = id
	return id
}

// Stack interns a stack of frame ids (root first) and returns its id. The
// slice is copied.
func (b *Builder) Stack(frames []int32) int32 {
	b.key = b.key[:0]
	for _, f := range frames {
		b.key = append(b.key, byte(f), byte(f>>8), byte(f>>16), byte(f>>24))
	}
	if id, ok := b.stacks[string(b.key)]; ok {
		return id
	}
	id := int32(len(b.p.Stacks))
	b.p.Stacks = append(b.p.Stacks, append([]int32(nil), frames...))
	b.stacks[string(b.key)] = id
	return id
}

// Add appends a sample. time is in nanoseconds since the profile's start;
// pass hasTime=false when the format has no times, which marks the profile
// untimed.
func (b *Builder) Add(stack int32, values []int64, time int64, hasTime bool, thread string, labels map[string][]string) {
	if !hasTime || (len(b.p.Samples) > 0 && time < b.last) {
		b.p.Timed = false
	}
	b.last = time
	b.p.Samples = append(b.p.Samples, Sample{Stack: stack, Values: values, Time: time, Thread: thread, Labels: labels})
}

// Grow reserves room for n more samples, for loaders that know the count.
func (b *Builder) Grow(n int) { b.p.Samples = slices.Grow(b.p.Samples, n) }

// Warn records a warning shown by load.
func (b *Builder) Warn(msg string) { b.p.Warnings = append(b.p.Warnings, msg) }

// Finish returns the profile. The builder must not be used afterwards.
func (b *Builder) Finish() *Profile {
	p := b.p
	if len(p.Samples) == 0 {
		p.Timed = false
	}
	b.p, b.frames, b.stacks = nil, nil, nil
	return p
}
