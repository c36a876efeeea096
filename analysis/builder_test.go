package analysis

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestBuilderLimits builds past each limit in turn: the builder stops at
// the first, with a LimitError naming the file, the count and the option,
// and keeps no more than the limit allows.
func TestBuilderLimits(t *testing.T) {
	types := []ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}
	for _, c := range []struct {
		option string
		limits Limits
		build  func(b *Builder)
	}{
		{"max-samples", Limits{Samples: 10}, func(b *Builder) {
			for range 11 {
				b.Add(b.Stack(nil), []int64{1, 1}, 0, false, "", nil)
			}
		}},
		{"max-samples", Limits{Samples: 10}, func(b *Builder) { b.Grow(11) }},
		{"max-frames", Limits{Frames: 10}, func(b *Builder) {
			for i := range 11 {
				b.Frame(Frame{Name: string(rune('a' + i))})
			}
		}},
		{"max-depth", Limits{Depth: 10}, func(b *Builder) { b.Stack(make([]int32, 11)) }},
		{"max-depth", Limits{Depth: 10}, func(b *Builder) { b.CheckDepth(11) }},
		{"max-stack-frames", Limits{StackFrames: 10}, func(b *Builder) {
			f := b.Frame(Frame{Name: "f"})
			b.Stack([]int32{f, f, f, f, f})
			b.Stack([]int32{f, f, f, f})
			b.Stack([]int32{f, f, f, f}) // interned: costs nothing
			b.Stack([]int32{f, f})
		}},
		{"max-labels", Limits{Labels: 3}, func(b *Builder) {
			b.Add(b.Stack(nil), []int64{1, 1}, 0, false, "", map[string][]string{"a": {"1", "2"}})
			b.Add(b.Stack(nil), []int64{1, 1}, 0, false, "", map[string][]string{"a": {"1"}, "b": nil})
		}},
	} {
		b := NewBuilder("test", types...).bounded(context.Background(), nil, "x.pb", c.limits)
		c.build(b)
		var le *LimitError
		if !errors.As(b.Err(), &le) || le.Option != c.option || le.File != "x.pb" ||
			!strings.HasPrefix(b.Err().Error(), "x.pb: more than ") || !strings.Contains(b.Err().Error(), "set "+c.option+"=") {
			t.Errorf("%s: Err() = %v, want a LimitError of x.pb naming %s", c.option, b.Err(), c.option)
		}
		p := b.Profile()
		if len(p.Samples) > 10 || len(p.Frames) > 10 || p.Stacks.Len() > 2 || cap(p.Samples) > 256 {
			t.Errorf("%s: kept %d samples (room for %d), %d frames, %d stacks past the limit", c.option, len(p.Samples), cap(p.Samples), len(p.Frames), p.Stacks.Len())
		}
	}
}

// TestBuilderValuesLimit: sample values count 4 per sample of max-samples,
// whatever the number of value types.
func TestBuilderValuesLimit(t *testing.T) {
	types := make([]ValueType, 10)
	b := NewBuilder("test", types...).bounded(context.Background(), nil, "wide.pb", Limits{Samples: 10})
	for range 5 {
		b.Add(b.Stack(nil), make([]int64, 10), 0, false, "", nil)
	}
	var le *LimitError
	if !errors.As(b.Err(), &le) || le.Option != "max-samples" || len(b.Profile().Samples) != 4 {
		t.Errorf("Err() = %v after %d samples of 10 values, want max-samples at the 5th", b.Err(), len(b.Profile().Samples))
	}
}

// TestBuilderStopsWithContext: once the context ends, the builder stops
// within a few thousand calls with the context's error.
func TestBuilderStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := NewBuilder("test", ValueType{Type: "samples", Unit: "count"}).bounded(ctx, nil, "x.folded", Limits{})
	cancel()
	for i := 0; i < 10000 && b.Err() == nil; i++ {
		b.Add(b.Stack(nil), []int64{1}, 0, false, "", nil)
	}
	if !errors.Is(b.Err(), context.Canceled) || len(b.Profile().Samples) > 4096 {
		t.Errorf("Err() = %v after %d samples, want context.Canceled within 4096", b.Err(), len(b.Profile().Samples))
	}
}

// TestBuilderOverflow: the absolute values of a value type may sum to
// math.MaxInt64 at most, so that no total of the profile overflows; the
// sample that would pass it is named.
func TestBuilderOverflow(t *testing.T) {
	const big = math.MaxInt64/2 + 1
	for _, c := range []struct {
		values  []int64
		wantErr string // "" when all fit
	}{
		{[]int64{math.MaxInt64 / 2, math.MaxInt64 / 2, 1}, ""},
		{[]int64{big, big}, "sample 2: the cpu values add up past 9223372036854775807"},
		{[]int64{big, -big}, "sample 2: the cpu values add up"},
		{[]int64{1, math.MinInt64}, "sample 2: the cpu values add up"},
		{[]int64{-math.MaxInt64, 0, 1}, "sample 3: the cpu values add up"},
	} {
		b := NewBuilder("test", ValueType{Type: "cpu", Unit: "nanoseconds"})
		for _, v := range c.values {
			b.Add(b.Stack(nil), []int64{v}, 0, false, "", nil)
		}
		err := b.Err()
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("values %v: Err() = %v, want none", c.values, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("values %v: Err() = %v, want %q", c.values, err, c.wantErr)
		case err == nil && b.Profile().Total(0) < 0:
			t.Errorf("values %v: total %d", c.values, b.Profile().Total(0))
		}
	}
}
