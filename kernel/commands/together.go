package commands

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/live"
	"github.com/proflens/proflens/phase"
)

// togetherFormat is the format of a profile watch makes of several
// attachments' CPU windows.
const togetherFormat = "together"

// together merges the CPU windows of several attachments into one series
// on proflens's clock: time is cut into slots of the longest window
// length, counted from the first window's start; each slot where some
// window starts is an interval holding those windows (in the order of
// as, then in time), each stack under a root frame named after its
// attachment. Nothing is scaled: its values are the windows' values.
func together(name string, as []*attachment) (*analysis.Profile, error) {
	var (
		first  *analysis.Profile
		t0     time.Time
		length time.Duration
	)
	for _, a := range as {
		length = max(length, a.window)
		for _, w := range a.parts[live.CPU] {
			switch {
			case first == nil:
				first, t0 = w, w.Start
			case !slices.Equal(w.ValueTypes, first.ValueTypes):
				return nil, fmt.Errorf("together %s: %s's cpu windows have value types %s, another's %s", name, a.name,
					valueTypeNames(w.ValueTypes), valueTypeNames(first.ValueTypes))
			case w.Start.Before(t0):
				t0 = w.Start
			}
		}
	}
	if first == nil {
		return nil, fmt.Errorf("together %s: no cpu window yet", name)
	}
	slots := map[int][]rooted{}
	for _, a := range as {
		for _, w := range a.parts[live.CPU] {
			i := int(w.Start.Sub(t0) / length)
			slots[i] = append(slots[i], rooted{a.name, w})
		}
	}
	order := make([]int, 0, len(slots))
	for i := range slots {
		order = append(order, i)
	}
	sort.Ints(order)
	b := analysis.NewBuilder(togetherFormat, first.ValueTypes...)
	out := b.Profile()
	out.Source, out.Lang, out.DefaultValue = name, first.Lang, first.DefaultValue
	out.Period, out.PeriodType, out.Start = first.Period, first.PeriodType, t0
	for _, i := range order {
		at := time.Duration(i) * length
		out.Intervals = append(out.Intervals, len(out.Samples))
		out.IntervalNames = append(out.IntervalNames, slotName(at, slots[i]))
		for _, r := range slots[i] {
			analysis.AddAll(b, r.w, at, true, analysis.Frame{Name: r.root})
		}
	}
	out.Intervals = append(out.Intervals, len(out.Samples))
	out.Duration = time.Duration(order[len(order)-1]+1) * length
	if err := b.Err(); err != nil {
		return nil, fmt.Errorf("together %s: %w", name, err)
	}
	return b.Finish(), nil
}

// rooted is a window and the name of the attachment it came from.
type rooted struct {
	root string
	w    *analysis.Profile
}

// slotName names an interval of a together profile: its time and the
// attachments whose windows it holds.
func slotName(at time.Duration, rs []rooted) string {
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.root) {
			names = append(names, r.root)
		}
	}
	return fmt.Sprintf("at %.0fs: %s", at.Seconds(), strings.Join(names, ", "))
}

func valueTypeNames(t []analysis.ValueType) string {
	s := make([]string, len(t))
	for i, vt := range t {
		s[i] = vt.Type + "/" + vt.Unit
	}
	return strings.Join(s, " ")
}

// phaseDims are the dimensions of a profile's interval vectors: its view's
// names; on a together profile, each qualified by its root frame (the
// attachment's name), "run: main.encode", so that a function in two
// processes is two dimensions and a phase says which process it is in.
func phaseDims(v *compaction.View) *phase.Dims {
	d, t := viewDims(v), v.Tree
	if t.Profile.Format != togetherFormat {
		return d
	}
	names := make([]string, t.Len())
	root := make([]int32, t.Len())
	for m := range names {
		root[m] = int32(m)
		if p := t.Parent[m]; p >= 0 {
			root[m] = root[p]
		}
		names[m] = d.Names[d.Node[m]]
		if root[m] != int32(m) {
			names[m] = t.Name(root[m]) + ": " + names[m]
		}
	}
	return phase.NewDims(names)
}
