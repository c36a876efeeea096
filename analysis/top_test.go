package analysis_test

import (
	"cmp"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/internal/testprof"
)

// sortRows orders rows as pprof's FlatNameOrder (CumNameOrder when byCum):
// by |flat| descending, then name, then |cum| descending.
func sortRows(rows []analysis.TopRow, byCum bool) {
	slices.SortFunc(rows, func(a, b analysis.TopRow) int {
		k1a, k1b, k2a, k2b := abs(a.Flat), abs(b.Flat), abs(a.Cum), abs(b.Cum)
		if byCum {
			k1a, k1b, k2a, k2b = k2a, k2b, k1a, k1b
		}
		return cmp.Or(cmp.Compare(k1b, k1a), strings.Compare(a.Name, b.Name), cmp.Compare(k2b, k2a))
	})
}

func abs(x int64) int64 { return max(x, -x) }

// naiveTop is the oracle: pprof's definitions applied sample by sample,
// with functions named by their names.
func naiveTop(p *analysis.Profile, o analysis.TopOptions) *analysis.Top {
	return naiveTopBy(p, o, func(f analysis.Frame) string { return f.Name })
}

// pprofRow names a frame's row at each granularity as go tool pprof's
// NodeInfo.PrintableName does, for frames without addresses whose names
// carry no location.
var pprofRow = []func(f analysis.Frame) string{
	func(f analysis.Frame) string { return f.Name },
	func(f analysis.Frame) string {
		switch {
		case f.Line != 0:
			return fmt.Sprintf("%s %s:%d", f.Name, f.File, f.Line)
		case f.File != "":
			return f.Name + " " + f.File
		}
		return f.Name
	},
	func(f analysis.Frame) string { return cmp.Or(f.File, "<unknown>") },
}

// naiveTopBy is naiveTop with rows named by row.
func naiveTopBy(p *analysis.Profile, o analysis.TopOptions, row func(analysis.Frame) string) *analysis.Top {
	match := func(re *regexp.Regexp, f analysis.Frame) bool {
		return re != nil && (re.MatchString(f.Name) || (f.File != "" && re.MatchString(f.File)))
	}
	flat, cum := map[string]int64{}, map[string]int64{}
	first := map[string]int32{} // a row's first frame
	for f := len(p.Frames) - 1; f >= 0; f-- {
		first[row(p.Frames[f])] = int32(f)
	}
	top := &analysis.Top{Value: p.ValueTypes[o.Value]}
	for _, s := range p.Samples {
		v := p.Value(&s, o.Value)
		top.Total += abs(v)
		var frames []analysis.Frame
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
			if !seen[row(f)] {
				seen[row(f)] = true
				cum[row(f)] += v
			}
		}
		flat[row(frames[len(frames)-1])] += v
	}
	for name, c := range cum {
		if flat[name] != 0 || c != 0 {
			top.Rows = append(top.Rows, analysis.TopRow{Name: name, Frame: first[name], Flat: flat[name], Cum: c})
			top.Kept += flat[name]
		}
	}
	sortRows(top.Rows, o.ByCum)
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
		p := testprof.Random(r, 1+r.Intn(60), nil)
		tree := analysis.NewTree(p)
		o := analysis.TopOptions{
			Value: r.Intn(2), Focus: res[r.Intn(len(res))], Ignore: res[r.Intn(len(res))],
			Hide: res[r.Intn(len(res))], ByCum: r.Intn(2) == 0, N: r.Intn(4),
		}
		got, want := analysis.NewTop(tree, o), naiveTop(p, o)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: analysis.NewTop(%+v) =\n%+v\nwant\n%+v", i, o, got, want)
		}
	}
}

// TestTopGranularityMatchesNaive checks NewTop at functions, lines and
// files against pprof's naming applied sample by sample to the frames the
// profile was built with.
func TestTopGranularityMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 300; i++ {
		p := testprof.Random(r, 1+r.Intn(60), nil)
		g := analysis.Granularity(r.Intn(3))
		q := p.At(analysis.Functions).At(g) // from the given frames, as a loaded profile's
		o := analysis.TopOptions{Value: r.Intn(2), ByCum: r.Intn(2) == 0, N: r.Intn(4)}
		got, want := analysis.NewTop(analysis.NewTree(q), o), naiveTopBy(p, o, pprofRow[g])
		for i := range want.Rows {
			want.Rows[i].Frame = 0 // frame ids differ between p and q
		}
		for i := range got.Rows {
			got.Rows[i].Frame = 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: NewTop at %v (%+v) =\n%+v\nwant\n%+v", i, g, o, got, want)
		}
	}
}

func TestTopRecursionCountsOnce(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{"samples", "count"})
	a, c := b.Frame(analysis.Frame{Name: "a"}), b.Frame(analysis.Frame{Name: "c"})
	b.Add(b.Stack([]int32{a, c, a, c, a}), []int64{5}, 0, false, "", nil)
	b.Add(b.Stack([]int32{a}), []int64{2}, 0, false, "", nil)
	top := analysis.NewTop(analysis.NewTree(b.Finish()), analysis.TopOptions{})
	want := []analysis.TopRow{{Name: "a", Frame: a, Flat: 7, Cum: 7}, {Name: "c", Frame: c, Flat: 0, Cum: 5}}
	if !reflect.DeepEqual(top.Rows, want) || top.Total != 7 {
		t.Errorf("NewTop = %+v (total %d), want %+v (total 7)", top.Rows, top.Total, want)
	}
}
