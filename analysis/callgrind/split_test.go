package callgrind

import (
	"math"
	"math/rand"
	"testing"
)

// TestSplit: on random parts and totals, the shares add up to the total
// exactly, each is within one unit of its exact share, and a total equal
// to the parts' sum gives the parts back.
func TestSplit(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var sp splitter
	for round := range 2000 {
		parts := make([]int64, 1+r.Intn(8))
		var sum int64
		for i := range parts {
			parts[i] = r.Int63n(1 << uint(1+r.Intn(40)))
			sum += parts[i]
		}
		total := r.Int63n(1 << uint(1+r.Intn(40)))
		if round%5 == 0 {
			total = sum
		}
		out := make([]int64, len(parts))
		sp.split(total, parts, out, nil)
		var got int64
		for i, x := range out {
			got += x
			exact := float64(total) * float64(parts[i]) / float64(sum)
			if sum == 0 {
				exact = map[bool]float64{true: float64(total), false: 0}[i == 0]
			}
			if math.Abs(float64(x)-exact) > 1+1e-6*exact {
				t.Fatalf("split(%d, %v)[%d] = %d, want %g ± 1", total, parts, i, x, exact)
			}
			if total == sum && x != parts[i] {
				t.Fatalf("split(%d, %v) = %v, want the parts", total, parts, out)
			}
		}
		if got != total {
			t.Fatalf("split(%d, %v) = %v, adding up to %d", total, parts, out, got)
		}
	}
}

func TestRatio(t *testing.T) {
	for _, c := range []struct {
		r    ratio
		n    int64
		want int64
	}{{one, 7, 7}, {ratio{1, 2}, 1, 1}, {ratio{1, 3}, 1, 0}, {ratio{2, 3}, 330, 220}, {ratio{0, 1}, 5, 0}, {ratio{3, 1}, math.MaxInt64, math.MaxInt64}} {
		if got := c.r.of(c.n); got != c.want {
			t.Errorf("%v.of(%d) = %d, want %d", c.r, c.n, got, c.want)
		}
	}
}
