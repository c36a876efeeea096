package phase

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

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

// NewSimilarity computes the matrix of v's window vectors (window ω) with
// at most side bins along each axis, in O(intervals × names + bins² ×
// names) time: the mean over a cell is the dot product of the bins' sums
// of W divided by the bins' sizes. The bins' sums (bins × names) and the
// cells (bins²) stay within maxCells (0 for DefaultMaxCells): with many
// names, fewer bins are used. ctx is looked at as the work goes.
func NewSimilarity(ctx context.Context, v *Vectors, window, side, maxCells int) (*Similarity, error) {
	if window < 1 || side < 1 || maxCells < 0 {
		return nil, fmt.Errorf("similarity: window %d, side %d, max cells %d: want positive numbers (max cells 0 for the default)", window, side, maxCells)
	}
	if err := v.check(); err != nil {
		return nil, err
	}
	n, d := v.Len(), max(len(v.Names), 1)
	maxCells = bound(maxCells, DefaultMaxCells, cellBytes)
	side = min(n, side, maxCells/d, int(math.Sqrt(float64(maxCells))))
	if side < 1 && n > 0 {
		return nil, &LimitError{Limit: "cells", Need: int64(d), Max: int64(maxCells), Memory: atMemory(int64(maxCells), cellBytes),
			Msg: fmt.Sprintf("similarity over %d names needs at least %d cells, more than the limit of %d: a coarser level gives fewer names", d, d, maxCells)}
	}
	s := &Similarity{N: n, Bins: make([]int, side+1)}
	for b := range s.Bins {
		s.Bins[b] = int(int64(b) * int64(n) / int64(max(side, 1)))
	}
	pace := pacer{ctx: ctx}
	sums, err := s.binSums(v, window, &pace)
	if err != nil {
		return nil, err
	}
	return s, s.fill(sums, len(v.Names), &pace)
}

// binSums returns, per bin, the sum of the bin's normalized window vectors.
func (s *Similarity) binSums(v *Vectors, window int, pace *pacer) ([]float64, error) {
	d := len(v.Names)
	sums := make([]float64, s.Side()*d)
	win := newWindow(v, window)
	b := 0
	for i := range s.N {
		win.advance(i)
		for i >= s.Bins[b+1] {
			b++
		}
		if err := pace.step(1 + v.Off[i+1] - v.Off[i]); err != nil {
			return nil, err
		}
		if win.n == 0 {
			continue
		}
		norm := math.Sqrt(floats.Dot(win.sum, win.sum))
		pace.work += d
		if norm == 0 {
			continue
		}
		row := sums[b*d : (b+1)*d]
		for j, x := range win.sum {
			row[j] += x / norm
		}
	}
	return sums, nil
}

// fill computes the cells from the bins' sums over d names.
func (s *Similarity) fill(sums []float64, d int, pace *pacer) error {
	side := s.Side()
	s.Cells = make([]float64, side*side)
	for a := 0; a < side; a++ {
		ra := sums[a*d : (a+1)*d]
		for c := a; c < side; c++ {
			x := floats.Dot(ra, sums[c*d:(c+1)*d]) / float64((s.Bins[a+1]-s.Bins[a])*(s.Bins[c+1]-s.Bins[c]))
			x = min(max(x, 0), 1) // rounding can leave a unit dot product a hair above 1
			s.Cells[a*side+c], s.Cells[c*side+a] = x, x
		}
		if err := pace.step((side - a) * max(d, 1)); err != nil {
			return err
		}
	}
	return nil
}

// BinPhases returns, per bin, the phase id covering most of its intervals
// (the lowest id on a tie), for the bands along the matrix's axes.
func (s *Similarity) BinPhases(of []int32) []int32 {
	out := make([]int32, s.Side())
	count := map[int32]int{}
	for b := range out {
		out[b] = mostCommon(of[s.Bins[b]:s.Bins[b+1]], count)
	}
	return out
}
