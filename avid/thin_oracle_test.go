package avid

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/analysistest"
)

// The oracle below transcribes the paper's definitions (seed 001, §2.2)
// literally, event by event, over the recording's own lists: for each
// event, the range whose [from, to) holds its time (else the default)
// says what is kept of it:
//   - C-1 x: the control-flow events whose place among the range's is a
//     multiple of x, replayed on a stack of their own;
//   - C-2 x: at those events, the stack of the event's thread;
//   - C-3 x: at every time first + k·x up to the end that falls in the
//     range (first: the range's first control-flow event), the stack of
//     every thread that has had an event by then;
//   - M-1 x: the memory events whose place among the range's is a
//     multiple of x;
//   - M-2 x: for every time from + k·x, the first memory event of the
//     range at or after it;
//   - M-3: with M-1 or M-2, the stack of the memory event's thread when it
//     happens, as a snapshot, and the event keeps it; without M-3 a kept
//     memory event keeps no stack;
//   - trace: every event, and a snapshot of its thread's stack after it.
//
// At equal times control-flow events come before memory events. The
// oracle keeps the recording's stacks itself, from the entries and exits.

// oracleOut is what a thinning kept, as sorted text lines, and its size.
type oracleOut struct {
	snaps, memory []string
	records       int64
}

func oracle(p *analysis.Profile, c Control) oracleOut {
	var out oracleOut
	rangeOf := func(t int64) (int, Sampling, int64) {
		for i, r := range c.Ranges {
			if r.From <= t && t < r.To {
				return i, r.Sampling, r.From
			}
		}
		return len(c.Ranges), c.Default, 0
	}
	end := int64(0)
	for _, e := range p.Events {
		end = max(end, p.EventTime(e))
	}
	for _, m := range p.Memory {
		end = max(end, m.Time)
	}
	name := func(f int32) string { return p.Frames[f].Name }
	line := func(t int64, thread int32, st []int32) string {
		var names []string
		for _, f := range st {
			names = append(names, name(f))
		}
		return fmt.Sprintf("%d %s [%s]", t, p.ThreadName(thread), strings.Join(names, ";"))
	}
	// The C-3 times of each range.
	ticks := map[int64]bool{}
	for i := range len(c.Ranges) + 1 {
		first := int64(math.MaxInt64)
		var every int64
		for _, e := range p.Events {
			if j, s, _ := rangeOf(p.EventTime(e)); j == i && s.Kind == "C-3" {
				first, every = min(first, p.EventTime(e)), s.Every
			}
		}
		for t := first; every > 0 && t <= end; t += every {
			if j, _, _ := rangeOf(t); j == i {
				ticks[t] = true
			}
		}
	}
	// M-2: for each range and tick, the first memory event at or after it.
	m2 := map[int]bool{}
	for i := range len(c.Ranges) + 1 {
		for k := int64(0); ; k++ {
			found := false
			for j, m := range p.Memory {
				ri, s, from := rangeOf(m.Time)
				if ri != i || s.Memory != "M-2" {
					continue
				}
				if t := from + k*s.MemoryEvery; m.Time >= t {
					m2[j], found = true, true
					break
				}
			}
			if !found {
				break
			}
		}
	}
	stacks := map[int32][]int32{} // per thread, from the entries and exits
	replay := map[int32][]int32{}
	var threads []int32
	placeC, placeM := map[int]int64{}, map[int]int64{}
	snapTicks := func(before int64, inclusive bool) {
		for _, t := range slices.Sorted(maps.Keys(ticks)) {
			if t < before || inclusive && t == before {
				for _, th := range threads {
					out.snaps = append(out.snaps, line(t, th, stacks[th]))
					out.records += int64(len(stacks[th])) + 1
				}
				delete(ticks, t)
			}
		}
	}
	i, j := 0, 0
	for i < len(p.Events) || j < len(p.Memory) {
		if j == len(p.Memory) || i < len(p.Events) && p.EventTime(p.Events[i]) <= p.Memory[j].Time {
			e := p.Events[i]
			call := &p.Calls[e.Call]
			th, t := p.CallThread(call), p.EventTime(e)
			snapTicks(t, false)
			if _, ok := stacks[th]; !ok {
				threads = append(threads, th)
			}
			if e.Exit {
				stacks[th] = stacks[th][:len(stacks[th])-1]
			} else {
				stacks[th] = append(slices.Clone(stacks[th]), call.Frame)
			}
			ri, s, _ := rangeOf(t)
			placeC[ri]++
			kept := s.Kind != "" && s.Kind != "trace" && s.Kind != "C-3" && placeC[ri]%s.Every == 0
			switch {
			case s.Kind == "trace":
				out.snaps = append(out.snaps, line(t, th, stacks[th]))
				out.records += 2
			case kept && s.Kind == "C-1":
				r := slices.Clone(replay[th])
				if !e.Exit {
					r = append(r, call.Frame)
				} else if len(r) > 0 {
					r = r[:len(r)-1]
				}
				replay[th] = r
				out.snaps = append(out.snaps, line(t, th, r))
				out.records += 2
			case kept && s.Kind == "C-2":
				out.snaps = append(out.snaps, line(t, th, stacks[th]))
				out.records += int64(len(stacks[th])) + 1
			}
			i++
			continue
		}
		m := p.Memory[j]
		snapTicks(m.Time, false)
		ri, s, _ := rangeOf(m.Time)
		placeM[ri]++
		kept := s.Memory == "trace" || s.Memory == "M-1" && placeM[ri]%s.MemoryEvery == 0 || s.Memory == "M-2" && m2[j]
		if kept {
			withStack := s.Memory == "trace" || s.Snap
			if s.Snap {
				out.snaps = append(out.snaps, line(m.Time, m.Thread, stacks[m.Thread]))
				out.records += int64(len(stacks[m.Thread])) + 1
			}
			out.memory = append(out.memory, fmt.Sprintf("%d %s stack=%v free=%v", m.Time, name(m.Class), withStack && len(stacks[m.Thread]) > 0, m.Free))
			out.records += 2
		}
		j++
	}
	snapTicks(end, true)
	slices.Sort(out.snaps)
	slices.Sort(out.memory)
	return out
}

// thinnedOut is what Thin kept, as the oracle writes it.
func thinnedOut(q *Thinned) oracleOut {
	p := q.Profile
	out := oracleOut{records: q.Records}
	for i := range p.Samples {
		s := &p.Samples[i]
		var names []string
		for _, f := range p.Stacks.At(s.Stack) {
			names = append(names, p.Frames[f].Name)
		}
		out.snaps = append(out.snaps, fmt.Sprintf("%d %s [%s]", s.Time, p.Thread(s), strings.Join(names, ";")))
	}
	for _, m := range p.Memory {
		out.memory = append(out.memory, fmt.Sprintf("%d %s stack=%v free=%v", m.Time, p.Frames[m.Class].Name, m.Stack >= 0 && len(p.Stacks.At(m.Stack)) > 0, m.Free))
	}
	slices.Sort(out.snaps)
	slices.Sort(out.memory)
	return out
}

// randomSampling draws a sampling of both kinds of event.
func randomSampling(r *rand.Rand) Sampling {
	var s Sampling
	switch k := r.IntN(5); k {
	case 0, 1, 2:
		s.Kind, s.Every = []string{"C-1", "C-2", "C-3"}[k], int64(1+r.IntN(4))
		if s.Kind == "C-1" {
			s.Every++
		}
	case 3:
		s.Kind = "trace"
	}
	switch k := r.IntN(4); k {
	case 0, 1:
		s.Memory, s.MemoryEvery, s.Snap = []string{"M-1", "M-2"}[k], int64(1+r.IntN(4)), r.IntN(2) == 0
	case 2:
		s.Memory = "trace"
	}
	return s
}

// randomControl draws up to two disjoint ranges and a default.
func randomControl(r *rand.Rand, end int64) Control {
	c := Control{Default: randomSampling(r)}
	cuts := []int64{int64(r.IntN(int(end))), int64(r.IntN(int(end))), int64(r.IntN(int(end))), int64(r.IntN(int(end)))}
	slices.Sort(cuts)
	for k := range r.IntN(3) {
		if from, to := cuts[2*k], cuts[2*k+1]; from < to {
			c.Ranges = append(c.Ranges, Range{From: from, To: to, Sampling: randomSampling(r)})
		}
	}
	if r.IntN(4) == 0 && len(c.Ranges) > 0 {
		c.Ranges[len(c.Ranges)-1].To = math.MaxInt64
	}
	return c
}

// TestThinOracle: on random recordings of two threads with memory events
// and random controls, Thin keeps what the transcription keeps.
func TestThinOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	classes := []string{"java.lang.String", "core.Item", "db.Row"}
	checked := 0
	for run := range 2000 {
		a, _ := randomOps(r, classes)
		b, _ := randomOps(r, classes)
		p := analysistest.Build(analysistest.Recording{Thread: "a", Ops: strings.Join(a, " ")},
			analysistest.Recording{Thread: "b", Start: int64(r.IntN(20)), Ops: strings.Join(b, " ")})
		c := randomControl(r, 60)
		q, err := Thin(p, c)
		want := oracle(p, c)
		if errors.Is(err, ErrNoMemory) && len(p.Memory) == 0 {
			continue
		}
		if err != nil {
			if len(want.memory) == 0 && !slices.ContainsFunc(want.snaps, func(s string) bool { return !strings.HasSuffix(s, "[]") }) {
				continue // the oracle keeps nothing either
			}
			t.Fatalf("run %d: Thin(%v): %v", run, c, err)
		}
		got := thinnedOut(q)
		if !slices.Equal(got.snaps, want.snaps) || !slices.Equal(got.memory, want.memory) || got.records != want.records {
			t.Fatalf("run %d: Thin(%v)\nsnapshots %q\nwant      %q\nmemory %q\nwant   %q\nrecords %d, want %d\nthread a: %s\nthread b: %s",
				run, c, got.snaps, want.snaps, got.memory, want.memory, got.records, want.records, strings.Join(a, " "), strings.Join(b, " "))
		}
		checked++
	}
	if checked < 1500 {
		t.Errorf("only %d of 2000 random controls kept something", checked)
	}
}
