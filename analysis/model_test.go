package analysis

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// A sample must stay free of pointers: the garbage collector then marks a
// profile's samples as one object without scanning them (see Sample).
func TestSampleHoldsNoPointers(t *testing.T) {
	var walk func(reflect.Type) string
	walk = func(ty reflect.Type) string {
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return ty.String()
		case reflect.Array:
			return walk(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				if bad := walk(ty.Field(i).Type); bad != "" {
					return ty.Field(i).Name + " " + bad
				}
			}
		}
		return ""
	}
	if bad := walk(reflect.TypeFor[Sample]()); bad != "" {
		t.Errorf("Sample has a field that holds a pointer: %s", bad)
	}
}

// The builder copies what it is given, and hands back what it was given,
// sample by sample, whatever the caller does with its slices afterwards.
func TestBuilderKeepsSamples(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	type want struct {
		stack  []int32
		values []int64
		thread string
		labels map[string][]string
	}
	for round := range 50 {
		k := 1 + r.Intn(3)
		types := make([]ValueType, k)
		for i := range types {
			types[i] = ValueType{Type: string(rune('a' + i)), Unit: "count"}
		}
		b := NewBuilder("test", types...)
		var wants []want
		frames, values := make([]int32, 0, 8), make([]int64, k)
		for range r.Intn(200) {
			frames = frames[:0]
			for range r.Intn(6) {
				frames = append(frames, b.Frame(Frame{Name: string(rune('A' + r.Intn(5)))}))
			}
			for i := range values {
				values[i] = r.Int63n(1000) - 100
			}
			w := want{stack: slices.Clone(frames), values: slices.Clone(values)}
			if r.Intn(3) == 0 {
				w.thread = string(rune('t' + r.Intn(3)))
			}
			if r.Intn(4) == 0 {
				w.labels = map[string][]string{"k": {string(rune('0' + r.Intn(10)))}}
			}
			b.Add(b.Stack(frames), values, 0, false, w.thread, w.labels)
			clear(values) // the caller reuses its slices
			clear(frames[:cap(frames)])
			wants = append(wants, w)
		}
		p := b.Finish()
		if len(p.Samples) != len(wants) {
			t.Fatalf("round %d: %d samples, want %d", round, len(p.Samples), len(wants))
		}
		for i, w := range wants {
			s := &p.Samples[i]
			st := p.Stacks.At(s.Stack)
			if !slices.Equal(st, w.stack) || !slices.Equal(p.Values(s), w.values) || p.Thread(s) != w.thread || !reflect.DeepEqual(p.Labels(s), w.labels) {
				t.Fatalf("round %d, sample %d: stack %v values %v thread %q labels %v; want %v %v %q %v",
					round, i, st, p.Values(s), p.Thread(s), p.Labels(s), w.stack, w.values, w.thread, w.labels)
			}
			for v, x := range w.values {
				if p.Value(s, v) != x {
					t.Fatalf("round %d, sample %d: Value(%d) = %d, want %d", round, i, v, p.Value(s, v), x)
				}
			}
		}
		// Appending to one stack must not write into the next one.
		for id, st := range p.Stacks.All() {
			_ = append(st, -1)
			if id+1 < int32(p.Stacks.Len()) && slices.Contains(p.Stacks.At(id+1), -1) {
				t.Fatalf("round %d: appending to stack %d changed stack %d", round, id, id+1)
			}
		}
	}
}

func TestBuilderRefusesWrongValueCount(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Add with 1 value in a profile of 2 value types did not panic")
		}
	}()
	b := NewBuilder("test", ValueType{"a", "count"}, ValueType{"b", "count"})
	b.Add(b.Stack(nil), []int64{1}, 0, false, "", nil)
}
