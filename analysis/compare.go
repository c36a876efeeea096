package analysis

import (
	"fmt"
	"math"
)

// BaseLabel marks the samples of a difference that come from its baseline,
// as go tool pprof marks them under -diff_base: pprof's report total, and so
// its percentages, count those samples only (see NewTop).
const BaseLabel = "pprof::base"

// baseLabels is the label set of every baseline sample of a difference.
var baseLabels = map[string][]string{BaseLabel: {"true"}}

// Side is one side of a comparison: samples of a profile, read in one of its
// value types.
type Side struct {
	Profile *Profile
	Value   int      // value type index into Profile.ValueTypes
	Ranges  [][2]int // sample index ranges [lo, hi) to read; nil reads every sample
}

// The value types of a difference (see Compare), by index.
const (
	DiffChange = iota // new − base, named as NEW's value type
	DiffBase          // the baseline's values, "T.base"
	DiffNew           // NEW's values, "T.new"
	DiffBoth          // base + new, "T.both": the width of a differential flame graph
)

// Compare returns the difference of two sides as a profile, as go tool pprof
// -diff_base makes it: NEW's samples with their values, BASE's with theirs
// negated and labelled BaseLabel. Frames are matched by their row names
// at the sides' granularity (Profile.RowName: at Functions, by name, as
// pprof), so profiles of other formats compare function by function, or
// line by line; the difference is at the new side's granularity. With
// normalize, BASE's values are scaled to NEW's total (rounded per sample);
// without it, both sides must be in one unit.
//
// The difference has four value types, all in NEW's unit (DiffChange,
// DiffBase, DiffNew, DiffBoth): a baseline sample of value b carries
// (−b, b, 0, b), a new one of value n (n, 0, n, n). Samples keep their
// threads; a baseline sample's labels are BaseLabel alone. Samples with
// empty stacks (dropped by a filter) are kept, so that totals are those of
// the sides. Time and memory are linear in the samples read and the stacks
// they use.
func Compare(base, new Side, normalize bool) (*Profile, error) {
	if err := checkSides(base, new, normalize); err != nil {
		return nil, err
	}
	scale := 1.0
	if normalize {
		b, n := base.total(), new.total()
		if b == 0 {
			return nil, fmt.Errorf("compare: normalize: the baseline has no %s to scale", base.valueType().Type)
		}
		scale = float64(n) / float64(b)
	}
	vt := new.valueType()
	b := NewBuilder("diff", vt, ValueType{vt.Type + ".base", vt.Unit},
		ValueType{vt.Type + ".new", vt.Unit}, ValueType{vt.Type + ".both", vt.Unit})
	d := &differ{b: b, frames: map[string]int32{}}
	if err := d.add(base, scale, true); err != nil {
		return nil, err
	}
	if err := d.add(new, 1, false); err != nil {
		return nil, err
	}
	if err := b.Err(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	p := b.Finish()
	describeDiff(p, base.Profile, new.Profile)
	return p, nil
}

// checkSides refuses value types out of range and, unless normalize, sides
// in different units.
func checkSides(base, new Side, normalize bool) error {
	for _, s := range []struct {
		role string
		side Side
	}{{"base", base}, {"new", new}} {
		if s.side.Value < 0 || s.side.Value >= len(s.side.Profile.ValueTypes) {
			return fmt.Errorf("compare: %s value index %d: the profile has %d value types", s.role, s.side.Value, len(s.side.Profile.ValueTypes))
		}
	}
	if b, n := base.valueType(), new.valueType(); b.Unit != n.Unit && !normalize {
		return fmt.Errorf("compare: the baseline's %s is in %s, the new profile's %s in %s: choose value types of one unit, or normalize",
			b.Type, b.Unit, n.Type, n.Unit)
	}
	return nil
}

// describeDiff gives the difference the metadata of its sides.
func describeDiff(p, base, new *Profile) {
	p.Source = new.Source
	p.Lang, p.Granularity = new.Lang, new.Granularity
	if base.Lang != new.Lang {
		p.Lang = LangAuto
	}
	p.Period, p.PeriodType = new.Period, new.PeriodType
	p.Comment = []string{fmt.Sprintf("difference: %s minus %s (samples of the baseline carry %s=true)", new.Source, base.Source, BaseLabel)}
}

// IsDiff reports whether p is a difference made by Compare (also after a
// round trip through pprof): its value types are T, T.base, T.new, T.both.
func (p *Profile) IsDiff() bool {
	vt := p.ValueTypes
	if len(vt) != 4 {
		return false
	}
	for i, suffix := range []string{".base", ".new", ".both"} {
		if vt[i+1].Type != vt[0].Type+suffix || vt[i+1].Unit != vt[0].Unit {
			return false
		}
	}
	return true
}

func (s Side) valueType() ValueType { return s.Profile.ValueTypes[s.Value] }

// samples calls f with every sample index the side reads.
func (s Side) samples(f func(i int)) {
	if s.Ranges == nil {
		for i := range s.Profile.Samples {
			f(i)
		}
		return
	}
	for _, r := range s.Ranges {
		for i := max(r[0], 0); i < min(r[1], len(s.Profile.Samples)); i++ {
			f(i)
		}
	}
}

// total is the sum of the side's values.
func (s Side) total() int64 {
	var t int64
	s.samples(func(i int) { t += s.Profile.Value(&s.Profile.Samples[i], s.Value) })
	return t
}

// differ builds a difference: frames interned by name, and per side the
// difference's frame and stack of each of the side's.
type differ struct {
	b      *Builder
	frames map[string]int32
	of     []int32 // the side's frame → the difference's, -1 before its first use
	buf    []int32
}

// add appends the samples of one side, their values multiplied by scale
// (and negated for the baseline).
func (d *differ) add(s Side, scale float64, isBase bool) error {
	p := s.Profile
	stacks := make([]int32, p.Stacks.Len())
	for i := range stacks {
		stacks[i] = -1
	}
	d.of = make([]int32, len(p.Frames))
	for i := range d.of {
		d.of[i] = -1
	}
	var err error
	values := make([]int64, 4)
	s.samples(func(i int) {
		smp := &p.Samples[i]
		if err != nil || d.b.busy() {
			return
		}
		if stacks[smp.Stack] < 0 {
			stacks[smp.Stack] = d.stack(p, p.Stacks.At(smp.Stack))
		}
		var x int64
		if x, err = scaled(p.Value(smp, s.Value), scale); err != nil {
			return
		}
		values[DiffChange], values[DiffBase], values[DiffNew], values[DiffBoth] = x, 0, x, x
		labels := p.Labels(smp)
		if isBase {
			values[DiffChange], values[DiffBase], values[DiffNew], labels = -x, x, 0, baseLabels
		}
		d.b.Add(stacks[smp.Stack], values, 0, false, p.Thread(smp), labels)
	})
	return err
}

// stack interns a stack of p's frames as a stack of the difference's.
func (d *differ) stack(p *Profile, st []int32) int32 {
	d.buf = d.buf[:0]
	for _, f := range st {
		if d.of[f] < 0 {
			fr, row := &p.Frames[f], p.RowName(f)
			id, ok := d.frames[row]
			if !ok {
				id = d.b.Frame(Frame{Name: fr.Name, File: fr.File, Line: fr.Line, Addr: fr.Addr})
				d.frames[row] = id
			}
			d.of[f] = id
		}
		d.buf = append(d.buf, d.of[f])
	}
	return d.b.Stack(d.buf)
}

// scaled returns x times scale, rounded; an error when it leaves the range
// a total can hold.
func scaled(x int64, scale float64) (int64, error) {
	if scale == 1 {
		return x, nil
	}
	f := math.Round(float64(x) * scale)
	if math.Abs(f) > 1<<62 {
		return 0, fmt.Errorf("compare: normalize: a value of %d scaled by %g passes %d", x, scale, int64(1<<62))
	}
	return int64(f), nil
}
