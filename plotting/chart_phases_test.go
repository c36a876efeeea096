package plotting

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/proflens/proflens/phase"
)

// phasedVectors makes n intervals of 10 ms cycling through a, b, idle, a.
func phasedVectors(n int) *phase.Vectors {
	v := &phase.Vectors{Names: []string{"x", "y", "z"}, Off: []int{0}}
	rows := [][]float64{{5, 1, 0}, {0, 1, 5}, {0, 0, 0}, {4, 2, 0}}
	for i := range n {
		r := rows[(i*4/n)%4]
		var s int64
		for _, x := range r {
			s += int64(x)
		}
		v.Append(phase.Interval{Start: int64(i) * 1e7, End: int64(i+1) * 1e7}, s, r)
	}
	return v
}

func phasedResult(t *testing.T, v *phase.Vectors) *phase.Result {
	r, err := phase.Detect(t.Context(), v, phase.DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ph := r.Phase(1); ph != nil {
		ph.Label = "alpha"
	}
	return r
}

func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("svg is not well-formed XML: %v", err)
		}
	}
}

func TestPhaseChartsGolden(t *testing.T) {
	v := phasedVectors(40)
	r := phasedResult(t, v)
	s, err := phase.NewSimilarity(t.Context(), v, 3, phase.MaxCells, 0)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := SimilarityChart(s, r, "similarity")
	if err != nil {
		t.Fatal(err)
	}
	tl, err := TimelineChart(v, r, "timeline")
	if err != nil {
		t.Fatal(err)
	}
	for name, svg := range map[string][]byte{"phases-similarity.svg": sim, "phases-timeline.svg": tl} {
		wellFormed(t, svg)
		if bytes.HasPrefix(svg, []byte("<?xml")) {
			t.Errorf("%s starts with an XML prelude; inline HTML wants <svg first", name)
		}
		golden(t, name, svg)
	}
	again, _ := TimelineChart(v, r, "timeline")
	if !bytes.Equal(again, tl) {
		t.Error("TimelineChart is not deterministic: two renders differ")
	}
}

func TestSimilarityChartAveraged(t *testing.T) {
	v := phasedVectors(1200)
	r := phasedResult(t, v)
	s, err := phase.NewSimilarity(t.Context(), v, 3, phase.MaxCells, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Side() != phase.MaxCells || !s.Averaged() {
		t.Fatalf("NewSimilarity(1200 intervals) side = %d, averaged %v; want %d, true", s.Side(), s.Averaged(), phase.MaxCells)
	}
	svg, err := SimilarityChart(s, r, "big")
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg)
	if !bytes.Contains(svg, []byte("1200 intervals averaged into 500×500 cells")) {
		t.Error("averaged similarity chart does not say so in its title")
	}
}

// TestLegendColumns: the legend fills columns of at most rows entries, left
// to right, every entry once; past maxLegendColumns columns the last place
// is a summary (-1) of exactly the entries left out.
func TestLegendColumns(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for rows := 0; rows <= 12; rows++ {
			l := &chartLegend{names: make([]string, n)}
			cols := l.columns(rows)
			var flat []int
			for k, col := range cols {
				if len(col) == 0 || len(col) > max(rows, 1) || k < len(cols)-1 && len(col) != max(rows, 1) {
					t.Fatalf("columns(n=%d, rows=%d) = %v: column %d has %d entries", n, rows, cols, k, len(col))
				}
				flat = append(flat, col...)
			}
			room := max(rows, 1) * maxLegendColumns
			want := make([]int, min(n, room))
			for i := range want {
				want[i] = i
			}
			if n > room {
				want[room-1] = -1
			}
			if len(cols) > maxLegendColumns || !slices.Equal(flat, want) {
				t.Fatalf("columns(n=%d, rows=%d) = %v, want %v in at most %d columns", n, rows, cols, want, maxLegendColumns)
			}
			if hidden := n - shown(cols); n > room && l.name(-1, hidden) != fmt.Sprintf("+%d more", n-room+1) {
				t.Errorf("n=%d, rows=%d: summary %q", n, rows, l.name(-1, hidden))
			}
		}
	}
}
