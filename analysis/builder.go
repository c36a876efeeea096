package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Builder assembles a Profile, interning frames and stacks. A builder made
// by Input.NewBuilder also keeps the load's limits and watches its context:
// the first limit passed, the context's end or a total that int64 cannot
// hold becomes the builder's error (Err), after which its methods do
// nothing. Every builder refuses values whose absolute sum per value type
// passes math.MaxInt64, so that no total or subtotal of a profile can
// overflow.
type Builder struct {
	p      *Profile
	frames map[Frame]int32
	stacks map[string]int32
	key    []byte
	last   int64

	threads  map[string]int32
	numUnits map[string]string // NumLabel: numeric label keys, their first unit

	lastThread   string // the thread of the last sample added, and its id
	lastThreadID int32

	file        string                  // for errors
	cancel      context.CancelCauseFunc // called with the first error
	limits      Limits                  // zero: none
	stop        interrupt
	err         error
	sums        []int64 // per value type, the sum of |value| so far
	stackFrames int64
	labels      int64

	open []openCalls // per thread id: the calls entered and not yet left (calls.go)
}

// NewBuilder starts a profile with the given value types, without limits
// and without a context (see Input.NewBuilder).
func NewBuilder(format string, types ...ValueType) *Builder {
	return &Builder{
		p:       &Profile{Format: format, ValueTypes: types, Timed: true},
		frames:  make(map[Frame]int32),
		stacks:  make(map[string]int32),
		threads: make(map[string]int32),
		file:    format,
		sums:    make([]int64, len(types)),
	}
}

// bounded returns b with the limits l, watching ctx, and calling cancel
// (if not nil) with its error when it fails; file names the input in
// errors.
func (b *Builder) bounded(ctx context.Context, cancel context.CancelCauseFunc, file string, l Limits) *Builder {
	b.file, b.limits, b.stop.ctx, b.cancel = file, l, ctx, cancel
	return b
}

// Err returns the builder's error: a *LimitError, the context's error, or
// an overflow of a value type's total; nil while the profile is whole.
func (b *Builder) Err() error { return b.err }

// fail records the first error.
func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
		if b.cancel != nil {
			b.cancel(err)
		}
	}
}

// over records a LimitError when n passes max (a limit of 0 is none).
func (b *Builder) over(n, max int64, name limitName) bool {
	if max > 0 && n > max {
		b.fail(name.error(b.file, max))
		return true
	}
	return false
}

// busy reports whether the builder must stop: it has an error, or its
// context ended.
func (b *Builder) busy() bool {
	if b.err == nil && b.stop.done() {
		b.fail(fmt.Errorf("%s: %w", b.file, b.stop.err))
	}
	return b.err != nil
}

// Profile gives access to the profile's metadata fields while building
// (Source, Period, Start, Duration, Lang, DefaultValue, Warnings...).
func (b *Builder) Profile() *Profile { return b.p }

// Frame interns a frame and returns its id. The name is cleaned first
// (CleanName): frames whose names clean to the same are one frame.
func (b *Builder) Frame(f Frame) int32 {
	if b.busy() {
		return 0
	}
	if id, ok := b.frames[f]; ok {
		return id
	}
	raw := f
	if f.Name = CleanName(f.Name); f != raw {
		if id, ok := b.frames[f]; ok { // another hash of the same function
			b.frames[raw] = id
			return id
		}
	}
	if b.over(int64(len(b.p.Frames))+1, b.limits.Frames, framesLimit) {
		return 0
	}
	id := int32(len(b.p.Frames))
	b.p.Frames = append(b.p.Frames, f)
	b.frames[f], b.frames[raw] = id, id
	return id
}

// CheckDepth reports whether a stack of n frames is within the depth
// limit, recording the error when it is not. Loaders whose stacks can grow
// faster than their input (a frame of a few bytes, a location of many
// inlined frames) call it as a stack grows, before Stack sees it.
func (b *Builder) CheckDepth(n int) bool {
	return !b.over(int64(n), b.limits.Depth, depthLimit)
}

// Stack interns a stack of frame ids (root first) and returns its id. The
// slice is copied; the caller may reuse it.
func (b *Builder) Stack(frames []int32) int32 {
	if b.busy() || !b.CheckDepth(len(frames)) {
		return 0
	}
	b.key = b.key[:0]
	for _, f := range frames {
		b.key = append(b.key, byte(f), byte(f>>8), byte(f>>16), byte(f>>24))
	}
	if id, ok := b.stacks[string(b.key)]; ok {
		return id
	}
	if b.stackFrames += int64(len(frames)); b.over(b.stackFrames, b.limits.StackFrames, stackFramesLimit) {
		return 0
	}
	id := b.p.Stacks.add(frames)
	b.stacks[string(b.key)] = id
	return id
}

// Add appends a sample. time is in nanoseconds since the profile's start;
// pass hasTime=false when the format has no times, which marks the profile
// untimed. values holds one value per value type; it is copied, and the
// caller may reuse it. labels is kept, not copied.
func (b *Builder) Add(stack int32, values []int64, time int64, hasTime bool, thread string, labels map[string][]string) {
	p := b.p
	if len(values) != len(p.ValueTypes) {
		panic(fmt.Sprintf("analysis: a sample of a %s profile has %d values, want %d", p.Format, len(values), len(p.ValueTypes)))
	}
	if b.busy() || !b.room(1) || !b.sum(values) || !b.labelRoom(labels) {
		return
	}
	if !hasTime || (len(p.Samples) > 0 && time < b.last) {
		p.Timed = false
	}
	b.last = time
	s := Sample{Stack: stack, row: int32(len(p.Samples)), Time: time}
	p.values = appendDoubling(p.values, values...)
	if thread != "" {
		s.thread = b.thread(thread)
	}
	if labels != nil {
		p.labelSets = append(p.labelSets, labels)
		s.labels = int32(len(p.labelSets))
	}
	p.Samples = appendDoubling(p.Samples, s)
}

// thread returns the id of a thread label, interning it.
func (b *Builder) thread(thread string) int32 {
	if thread != b.lastThread { // samples come in runs of one thread
		t, ok := b.threads[thread]
		if !ok {
			b.p.threads = append(b.p.threads, Thread{Name: thread})
			t = int32(len(b.p.threads))
			b.threads[thread] = t
		}
		b.lastThread, b.lastThreadID = thread, t
	}
	return b.lastThreadID
}

// room reports whether n more samples fit the limits: the records, and
// their values (4 per record on average).
func (b *Builder) room(n int) bool {
	samples := int64(len(b.p.Samples)) + int64(n)
	values := samples * int64(len(b.p.ValueTypes))
	return !b.over(samples, b.limits.Samples, samplesLimit) && !b.over(values, 4*b.limits.Samples, valuesLimit)
}

// sum adds |values| to the totals, refusing a total past math.MaxInt64.
func (b *Builder) sum(values []int64) bool {
	for v, x := range values {
		if x == math.MinInt64 || max(x, -x) > math.MaxInt64-b.sums[v] {
			b.fail(fmt.Errorf("%s: sample %d: the %s values add up past %d, the largest total a profile can hold",
				b.file, len(b.p.Samples)+1, b.p.ValueTypes[v].Type, int64(math.MaxInt64)))
			return false
		}
		b.sums[v] += max(x, -x)
	}
	return true
}

// labelRoom counts a sample's label values against the limit.
func (b *Builder) labelRoom(labels map[string][]string) bool {
	for _, vs := range labels {
		b.labels += int64(max(1, len(vs)))
	}
	return !b.over(b.labels, b.limits.Labels, labelsLimit)
}

// Grow reserves room for n more samples, for loaders that know the count;
// a count past the limits is refused at once.
func (b *Builder) Grow(n int) {
	if b.busy() || !b.room(n) {
		return
	}
	b.p.Samples = slices.Grow(b.p.Samples, n)
	b.p.values = slices.Grow(b.p.values, n*len(b.p.ValueTypes))
}

// Note records a note shown by load: a choice the loader made, something
// that looks wrong in the file.
func (b *Builder) Note(msg string) { b.p.Notes = append(b.p.Notes, msg) }

// Warn records a warning shown by load.
func (b *Builder) Warn(msg string) { b.p.Warnings = append(b.p.Warnings, msg) }

// Finish returns the profile. The builder must not be used afterwards. When
// Err is not nil, the profile is incomplete: callers check Err first.
func (b *Builder) Finish() *Profile {
	p := b.p
	if len(p.Samples) == 0 {
		p.Timed = false
	}
	b.finishCalls()
	b.finishMemory()
	p.NumLabelUnits = inferUnits(b.numUnits)
	b.p, b.frames, b.stacks, b.threads = nil, nil, nil, nil
	return p
}
