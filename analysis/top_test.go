package analysis

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// randomProfile builds a profile of n samples over stacks drawn from a small
// alphabet of functions, with recursion, two value types and some negative
// and zero values.
func randomProfile(r *rand.Rand, n int) *Profile {
	b := NewBuilder("test", ValueType{"samples", "count"}, ValueType{"cpu", "nanoseconds"})
	names := []string{"main.main", "main.run", "pkg.A.f", "pkg.B.g", "lib.h", "lib.k", "runtime.x"}
	files := []string{"main.go", "a.go", "b.go"}
	for i := 0; i < n; i++ {
		depth := r.Intn(8)
		var st []int32
		for d := 0; d < depth; d++ {
			f := Frame{Name: names[r.Intn(len(names))], File: files[r.Intn(len(files))], Line: int64(r.Intn(3))}
			st = append(st, b.Frame(f))
		}
		v := int64(r.Intn(5))
		if r.Intn(20) == 0 {
			v = -v
		}
		b.Add(b.Stack(st), []int64{v, v * 1000}, 0, false, "", nil)
	}
	return b.Finish()
}

// naiveTop is the oracle: pprof's definitions applied sample by sample.
func naiveTop(p *Profile, o TopOptions) *Top {
	match := func(re *regexp.Regexp, f Frame) bool {
		return re != nil && (re.MatchString(f.Name) || (f.File != "" && re.MatchString(f.File)))
	}
	flat, cum := map[string]int64{}, map[string]int64{}
	top := &Top{Value: p.ValueTypes[o.Value]}
	for _, s := range p.Samples {
		v := p.Value(&s, o.Value)
		top.Total += abs64(v)
		var frames []Frame
		focused, ignored := o.Focus == nil, false
		for _, id := range p.Stacks.At(s.Stack) {
			f := p.Frames[id]
			focused = focused || match(o.Focus, f)
			ignored = ignored || match(o.Ignore, f)
			if !match(o.Hide, f) {
				frames = append(frames, f)
			}
		}
		if !focused || ignored || len(frames) == 0 || v == 0 {
			continue
		}
		seen := map[string]bool{}
		for _, f := range frames {
			if !seen[f.Name] {
				seen[f.Name] = true
				cum[f.Name] += v
			}
		}
		flat[frames[len(frames)-1].Name] += v
	}
	for name, c := range cum {
		if flat[name] != 0 || c != 0 {
			top.Rows = append(top.Rows, TopRow{Name: name, Flat: flat[name], Cum: c})
			top.Kept += flat[name]
		}
	}
	sortTop(top.Rows, o.ByCum)
	top.Count = len(top.Rows)
	if o.N > 0 && len(top.Rows) > o.N {
		top.Rows = top.Rows[:o.N]
	}
	return top
}

func TestTopMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	res := []*regexp.Regexp{nil, regexp.MustCompile(`pkg\.`), regexp.MustCompile(`^lib`), regexp.MustCompile(`a\.go`), regexp.MustCompile(`run|h$`)}
	for i := 0; i < 300; i++ {
		p := randomProfile(r, 1+r.Intn(60))
		tree := NewTree(p)
		o := TopOptions{
			Value: r.Intn(2), Focus: res[r.Intn(len(res))], Ignore: res[r.Intn(len(res))],
			Hide: res[r.Intn(len(res))], ByCum: r.Intn(2) == 0, N: r.Intn(4),
		}
		got, want := NewTop(tree, o), naiveTop(p, o)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: NewTop(%+v) =\n%+v\nwant\n%+v", i, o, got, want)
		}
	}
}

func TestTopRecursionCountsOnce(t *testing.T) {
	b := NewBuilder("test", ValueType{"samples", "count"})
	a, c := b.Frame(Frame{Name: "a"}), b.Frame(Frame{Name: "c"})
	b.Add(b.Stack([]int32{a, c, a, c, a}), []int64{5}, 0, false, "", nil)
	b.Add(b.Stack([]int32{a}), []int64{2}, 0, false, "", nil)
	top := NewTop(NewTree(b.Finish()), TopOptions{})
	want := []TopRow{{"a", 7, 7}, {"c", 0, 5}}
	if !reflect.DeepEqual(top.Rows, want) || top.Total != 7 {
		t.Errorf("NewTop = %+v (total %d), want %+v (total 7)", top.Rows, top.Total, want)
	}
}

func TestTopSortTies(t *testing.T) {
	rows := []TopRow{{"b", 1, 3}, {"a", 1, 2}, {"c", -4, 4}, {"d", 1, 9}}
	sortTop(rows, false)
	if got, want := rowNames(rows), "c a b d"; got != want {
		t.Errorf("sortTop(flat) = %v, want %v", got, want)
	}
	sortTop(rows, true)
	if got, want := rowNames(rows), "d c b a"; got != want {
		t.Errorf("sortTop(cum) = %v, want %v", got, want)
	}
}

func rowNames(rows []TopRow) string {
	var s []string
	for _, r := range rows {
		s = append(s, r.Name)
	}
	return strings.Join(s, " ")
}
