package phase

import "math"

// MaxCells caps the side of a similarity matrix: longer runs are averaged
// into at most MaxCells × MaxCells cells.
const MaxCells = 500

// Similarity is SimPoint's similarity matrix over JIVE's window vectors:
// cell (a, b) is the mean of W_i·W_j over the intervals i of bin a and j of
// bin b. With at most MaxCells intervals every bin is one interval.
type Similarity struct {
	N     int       // intervals
	Bins  []int     // first interval of each bin, then N
	Cells []float64 // len(Bins)-1 squared, row-major
}

// Side returns the number of bins along each axis.
func (s *Similarity) Side() int { return len(s.Bins) - 1 }

// At returns cell (a, b).
func (s *Similarity) At(a, b int) float64 { return s.Cells[a*s.Side()+b] }

// Averaged says whether bins hold more than one interval.
func (s *Similarity) Averaged() bool { return s.Side() < s.N }

// NewSimilarity computes the matrix of v's window vectors (window ω) in
// O(intervals × names + cells² × names) time: the mean over a cell is the
// dot product of the bins' sums of W divided by the bins' sizes.
func NewSimilarity(v *Vectors, window, maxCells int) *Similarity {
	n := v.Len()
	side := min(n, maxCells)
	s := &Similarity{N: n, Bins: make([]int, side+1)}
	for b := range s.Bins {
		s.Bins[b] = int(int64(b) * int64(n) / int64(max(side, 1)))
	}
	d := len(v.Names)
	sums := make([]float64, side*d)
	win := newWindow(v, window)
	b := 0
	for i := 0; i < n; i++ {
		win.advance(i)
		for i >= s.Bins[b+1] {
			b++
		}
		norm := math.Sqrt(dot(win.sum, win.sum))
		if win.n == 0 || norm == 0 {
			continue
		}
		row := sums[b*d : (b+1)*d]
		for j, x := range win.sum {
			row[j] += x / norm
		}
	}
	s.Cells = make([]float64, side*side)
	for a := 0; a < side; a++ {
		ra := sums[a*d : (a+1)*d]
		for c := a; c < side; c++ {
			x := dot(ra, sums[c*d:(c+1)*d]) / float64((s.Bins[a+1]-s.Bins[a])*(s.Bins[c+1]-s.Bins[c]))
			x = min(max(x, 0), 1) // rounding can leave a unit dot product a hair above 1
			s.Cells[a*side+c], s.Cells[c*side+a] = x, x
		}
	}
	return s
}

// BinPhases returns, per bin, the phase id covering most of its intervals
// (the lowest id on a tie), for the bands along the matrix's axes.
func (s *Similarity) BinPhases(of []int32) []int32 {
	out := make([]int32, s.Side())
	for b := range out {
		count := map[int32]int{}
		best := int32(-1)
		for _, id := range of[s.Bins[b]:s.Bins[b+1]] {
			count[id]++
			if best < 0 || count[id] > count[best] || (count[id] == count[best] && id < best) {
				best = id
			}
		}
		out[b] = best
	}
	return out
}
