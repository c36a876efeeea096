package analysis

import (
	"iter"
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
	// Lib is the binary, shared library or kernel image that holds the
	// frame's code, as the profile names it (perf's DSO, a pprof mapping's
	// file, a Gecko library): "/usr/lib/x86_64-linux-gnu/libc.so.6",
	// "[kernel.kallsyms]"; "" when the profile does not say. It is the top
	// name element of native frames whose names have no namespace
	// (names_native.go).
	Lib string
	// Addr is the machine address of the frame's code (a pprof location's
	// address); 0 when the profile does not say. Inlined frames share
	// their location's address.
	Addr uint64
}

// Sample is one observation. Its stack is an index into Profile.Stacks, so
// that a million samples over a hundred thousand distinct stacks cost one
// stack each. Its values, thread and labels are read through the profile
// (Values, Thread, Labels).
//
// A sample holds no pointers, nor does Stacks: a profile of a million
// samples is then a handful of objects that the garbage collector marks
// without scanning them, which keeps every collection in the session cheap
// while the profile is loaded. (Samples with labels still keep a map each,
// in the profile.)
type Sample struct {
	Stack  int32 // index into Profile.Stacks
	row    int32 // its values are Profile.values[row*k:(row+1)*k], k = len(ValueTypes)
	thread int32 // 1 + index into Profile.threads (Threads); 0: unknown
	labels int32 // 1 + index into Profile.labelSets; 0: none
	Time   int64 // nanoseconds since Profile.Start; meaningful when Profile.Timed
}

// Stacks is a list of stacks of frame ids, root → leaf, kept in one array.
type Stacks struct {
	frames []int32
	ends   []int32 // ends[i]: where stack i ends in frames
}

// Len returns the number of stacks.
func (s Stacks) Len() int { return len(s.ends) }

// At returns stack i, root first. The slice is the profile's: do not modify
// it (appending to it is safe).
func (s Stacks) At(i int32) []int32 {
	var lo int32
	if i > 0 {
		lo = s.ends[i-1]
	}
	return s.frames[lo:s.ends[i]:s.ends[i]]
}

// All yields every stack with its id, in id order.
func (s Stacks) All() iter.Seq2[int32, []int32] {
	return func(yield func(int32, []int32) bool) {
		for i := range int32(len(s.ends)) {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// add appends a stack and returns its id.
func (s *Stacks) add(frames []int32) int32 {
	s.frames = appendDoubling(s.frames, frames...)
	s.ends = appendDoubling(s.ends, int32(len(s.frames)))
	return int32(len(s.ends) - 1)
}

// appendDoubling is append for the large arrays a profile is built in: it
// doubles their capacity when they are full, where append grows large
// slices by a quarter, which would allocate about five times the final
// size while loading.
func appendDoubling[T any](s []T, more ...T) []T {
	if len(s)+len(more) > cap(s) {
		grown := make([]T, len(s), max(2*cap(s), len(s)+len(more), 256))
		copy(grown, s)
		s = grown
	}
	return append(s, more...)
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

	Frames []Frame
	// Granularity is what a frame stands for (granularity.go): Functions
	// for a profile Parse returned, whose frames the loader's finer ones
	// were merged into (given keeps those, for At).
	Granularity Granularity
	given       *Profile

	Stacks  Stacks // distinct stacks (after At merged frames, some may be equal)
	Samples []Sample

	values    []int64 // by Sample.row, len(ValueTypes) each
	threads   []Thread
	labelSets []map[string][]string

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

	// Calls and Events, for an evented recording: every call with its entry
	// and exit, and the entries and exits in time order (calls.go). Nil for
	// sampled profiles.
	Calls  []Call
	Events []Event

	// Memory, for a recording of allocations and deallocations: its memory
	// events in time order (memory.go), and where they come from. Nil for
	// most profiles.
	Memory       []Memory
	MemorySource MemorySource

	// NumLabelUnits gives the unit of each numeric label key (pprof's
	// num_label), as pprof infers it; a numeric label's values are written
	// "N" or "N unit" in Labels. Nil when the profile has none.
	NumLabelUnits map[string]string

	Warnings []string
	// Notes say what the loader chose where the file left a choice (which
	// of its recordings, which value type) and what looks wrong in it.
	Notes []string
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
		t += p.Value(&p.Samples[i], v)
	}
	return t
}

// Values returns the values of sample s, one per value type. The slice is
// the profile's: do not modify it.
func (p *Profile) Values(s *Sample) []int64 {
	k := int64(len(p.ValueTypes))
	at := int64(s.row) * k
	return p.values[at : at+k : at+k]
}

// Value returns value v of sample s.
func (p *Profile) Value(s *Sample, v int) int64 {
	return p.values[int(s.row)*len(p.ValueTypes)+v]
}

// Thread returns the thread or goroutine label of sample s, "" when unknown.
func (p *Profile) Thread(s *Sample) string {
	return p.ThreadName(s.thread)
}

// ThreadName returns the label of thread id (Step.Thread): "" for 0, the
// unknown thread.
func (p *Profile) ThreadName(id int32) string {
	if id == 0 {
		return ""
	}
	return p.threads[id-1].Name
}

// Labels returns the labels of sample s, nil when it has none. The map is
// the profile's: do not modify it.
func (p *Profile) Labels(s *Sample) map[string][]string {
	if s.labels == 0 {
		return nil
	}
	return p.labelSets[s.labels-1]
}
