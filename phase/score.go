package phase

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/proflens/proflens/analysis"
)

// Scores compare a detected segmentation with a known one, following the
// protocol in the reference notes (A.6): boundary precision and recall
// within a margin (as ruptures' precision_recall), the adjusted Rand index
// of the labels (ids are arbitrary, so not accuracy), and recurrence: of the
// true returns to an earlier phase, the share given the same detected id.
type Scores struct {
	Precision, Recall, F1 float64
	ARI                   float64
	Recurrence            float64 // NaN when the truth has no return
	Phases                int     // distinct detected ids
}

// Score compares pred with truth (both per interval) with boundary margin m.
func Score(truth, pred []int32, m int) Scores {
	var s Scores
	s.Precision, s.Recall = BoundaryMatch(Boundaries(truth), Boundaries(pred), m)
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	s.ARI = ARI(truth, pred)
	s.Recurrence = Recurrence(truth, pred)
	seen := map[int32]bool{}
	for _, id := range pred {
		seen[id] = true
	}
	s.Phases = len(seen)
	return s
}

// Boundaries returns the intervals i where labels[i] != labels[i-1].
func Boundaries(labels []int32) []int {
	var out []int
	for i := 1; i < len(labels); i++ {
		if labels[i] != labels[i-1] {
			out = append(out, i)
		}
	}
	return out
}

// BoundaryMatch pairs true and detected boundaries one to one within m
// intervals, as van den Burg and Williams define it for F1 with a margin
// (TCPDBench, 2020): each true boundary in turn takes the nearest detected
// one not yet taken (the earlier on a tie), when that is at most m away.
// Precision is the matched share of detected boundaries, recall that of
// true ones. With no detected (true) boundaries precision (recall) is 1.
func BoundaryMatch(truth, pred []int, m int) (precision, recall float64) {
	taken := make([]bool, len(pred))
	tp := 0
	for _, t := range truth {
		best := -1
		for k, p := range pred {
			if !taken[k] && (best < 0 || abs(t-p) < abs(t-pred[best]) || abs(t-p) == abs(t-pred[best]) && p < pred[best]) {
				best = k
			}
		}
		if best >= 0 && abs(t-pred[best]) <= m {
			taken[best] = true
			tp++
		}
	}
	precision, recall = 1, 1
	if len(pred) > 0 {
		precision = float64(tp) / float64(len(pred))
	}
	if len(truth) > 0 {
		recall = float64(tp) / float64(len(truth))
	}
	return precision, recall
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ARI returns the adjusted Rand index of two labelings (Hubert and Arabie):
// 1 for identical partitions, about 0 for chance agreement.
func ARI(a, b []int32) float64 {
	type cell struct{ x, y int32 }
	nij, ai, bj := map[cell]int{}, map[int32]int{}, map[int32]int{}
	for i := range a {
		nij[cell{a[i], b[i]}]++
		ai[a[i]]++
		bj[b[i]]++
	}
	c2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var index, sa, sb float64
	for _, n := range nij {
		index += c2(n)
	}
	for _, n := range ai {
		sa += c2(n)
	}
	for _, n := range bj {
		sb += c2(n)
	}
	expected := sa * sb / c2(len(a))
	den := (sa+sb)/2 - expected
	if den == 0 {
		if index == sa && index == sb {
			return 1
		}
		return 0
	}
	return (index - expected) / den
}

// Recurrence returns, over the true segments whose label occurred in an
// earlier segment, the share whose most common detected id equals that of
// the label's first segment. Segments labelled 0 (idle) are left out; NaN
// when nothing recurs.
func Recurrence(truth, pred []int32) float64 {
	first, count := map[int32]int32{}, map[int32]int{}
	hits, n := 0, 0
	for lo := 0; lo < len(truth); {
		hi := lo
		for hi < len(truth) && truth[hi] == truth[lo] {
			hi++
		}
		id := mostCommon(pred[lo:hi], count)
		if l := truth[lo]; l != 0 {
			if f, ok := first[l]; ok {
				n++
				if f == id {
					hits++
				}
			} else {
				first[l] = id
			}
		}
		lo = hi
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(hits) / float64(n)
}

// OnePhase is a baseline: every interval in phase 1.
func OnePhase(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// EveryNew is a baseline: every interval a phase of its own.
func EveryNew(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i + 1)
	}
	return out
}

// Consecutive is the memoryless baseline of Dhodapkar and Smith: a new
// phase starts whenever the cosine of consecutive window vectors W_i and
// W_{i-1} is at most threshold; an empty window is phase 0.
func Consecutive(v *Vectors, window int, threshold float64) []int32 {
	out := make([]int32, v.Len())
	win := newWindow(v, window)
	prev := make([]float64, len(v.Names))
	id, prevEmpty := int32(0), true
	for i := range out {
		win.advance(i)
		if win.n == 0 {
			out[i], prevEmpty = Empty, true
			continue
		}
		w := normalized(win.sum)
		if prevEmpty || floats.Dot(w, prev) <= threshold {
			id++
		}
		out[i], prevEmpty = id, false
		copy(prev, w)
	}
	return out
}

// Truth returns per interval of v the most common value of sample label key
// (the lowest on a tie): the known phases of a program that marks them (the
// demo's trace regions). An interval without labelled samples is "" (idle),
// unless the nearest labelled intervals on both sides agree: then the gap
// is the program descheduled inside one phase, and takes that label.
func Truth(p *analysis.Profile, v *Vectors, key string) []string {
	out := majority(p, v, key)
	for lo := 0; lo < len(out); {
		if out[lo] != "" {
			lo++
			continue
		}
		hi := lo
		for hi < len(out) && out[hi] == "" {
			hi++
		}
		if lo > 0 && hi < len(out) && out[lo-1] == out[hi] {
			for i := lo; i < hi; i++ {
				out[i] = out[hi]
			}
		}
		lo = hi
	}
	return out
}

func majority(p *analysis.Profile, v *Vectors, key string) []string {
	out := make([]string, v.Len())
	s := 0
	for i, iv := range v.Intervals {
		count := map[string]int{}
		for ; s < len(p.Samples) && (i == len(out)-1 || p.Samples[s].Time < iv.End); s++ {
			if l := p.Labels(&p.Samples[s])[key]; len(l) > 0 {
				count[l[0]]++
			}
		}
		best := ""
		for l, c := range count {
			if best == "" || c > count[best] || (c == count[best] && l < best) {
				best = l
			}
		}
		out[i] = best
	}
	return out
}

// IDs numbers labels by first appearance from 1; "" becomes 0.
func IDs(labels []string) []int32 {
	ids := map[string]int32{"": 0}
	out := make([]int32, len(labels))
	for i, l := range labels {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		out[i] = id
	}
	return out
}
