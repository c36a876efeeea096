package callgrind

import (
	"math"
	"math/big"
	"math/rand"
	"slices"
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

// TestSplitTies: the units left over go to the largest remainders, the
// first part first on ties.
func TestSplitTies(t *testing.T) {
	var sp splitter
	for _, c := range []struct {
		total       int64
		parts, want []int64
	}{
		{3, []int64{1, 1, 1, 1}, []int64{1, 1, 1, 0}},
		{1, []int64{2, 2, 2}, []int64{1, 0, 0}},
		{5, []int64{1, 3, 1, 3}, []int64{1, 2, 0, 2}},
		{-3, []int64{1, 1, 1, 1}, []int64{0, -1, -1, -1}},
	} {
		out := make([]int64, len(c.parts))
		sp.split(c.total, c.parts, out, nil)
		if !slices.Equal(out, c.want) {
			t.Errorf("split(%d, %v) = %v, want %v", c.total, c.parts, out, c.want)
		}
	}
}

// TestSplitExact: on parts and totals up to 2^62 (counters of long runs),
// every share is within one unit of its exact share, computed in big
// rationals, the shares add up to the total and the units left go to the
// largest remainders; on negative numbers
// (xdebug's memory deltas, shared in floating point) up to 2^40 too.
func TestSplitExact(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var sp splitter
	for round := range 3000 {
		neg := round%3 == 0
		parts := make([]int64, 1+r.Intn(6))
		var sum int64
		for i := range parts {
			parts[i] = r.Int63n(1<<60) >> uint(r.Intn(60))
			if neg { // shared in floating point: exact to a unit below 2^53
				parts[i] >>= 22
				if r.Intn(2) == 0 {
					parts[i] = -parts[i]
				}
			}
			sum += parts[i]
		}
		if sum == 0 {
			continue
		}
		total := r.Int63n(1<<62) >> uint(r.Intn(62))
		if neg {
			total = (total >> 24) - r.Int63n(1<<38)
		}
		out := make([]int64, len(parts))
		sp.split(total, parts, out, nil)
		var got int64
		for i, x := range out {
			got += x
			exact := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(total), big.NewInt(parts[i])), big.NewInt(sum))
			d := new(big.Rat).Sub(new(big.Rat).SetInt64(x), exact)
			if d.Abs(d).Cmp(big.NewRat(1, 1)) > 0 {
				t.Fatalf("split(%d, %v)[%d] = %d, want %s ± 1", total, parts, i, x, exact.FloatString(2))
			}
		}
		if got != total {
			t.Fatalf("split(%d, %v) = %v, adding up to %d", total, parts, out, got)
		}
		// The units left go to the largest remainders: no part rounded
		// down has a larger remainder than a part rounded up.
		up, down := 1.0, 0.0 // the least remainder rounded up, the largest rounded down
		for i, x := range out {
			exact := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(total), big.NewInt(parts[i])), big.NewInt(sum))
			fl := new(big.Int).Div(exact.Num(), exact.Denom()) // floor: Denom > 0, Div rounds toward -inf for it
			rem, _ := new(big.Rat).Sub(exact, new(big.Rat).SetInt(fl)).Float64()
			if x > fl.Int64() {
				up = min(up, rem)
			} else if rem > 0 {
				down = max(down, rem)
			}
		}
		if down > up+1e-3 {
			t.Fatalf("split(%d, %v) = %v: a remainder of %g rounded down, one of %g up", total, parts, out, down, up)
		}
	}
}

// TestSplitCarry: splits that share their parts (a function's self cost
// divided among the nodes of its call paths) with a carry give each part,
// summed over the splits, its exact total plus its first carry to within
// a unit (two when the carry starts away from zero: a share cannot go
// below zero to give a carry back); no share is negative, zero totals
// included, and each split adds up to its total. A carry may start
// anywhere in (-1, 1): the unroller's carries are per function or call,
// left by splits among other parts.
func TestSplitCarry(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var sp splitter
	for round := range 1000 {
		parts := make([]int64, 1+r.Intn(6))
		bits := 1 + r.Intn(20)
		if round%2 == 0 { // small parts: many ties among the remainders
			bits = 1 + r.Intn(3)
		}
		for i := range parts {
			parts[i] = r.Int63n(1 << uint(bits))
		}
		carry := make([]float64, len(parts))
		exact := make([]float64, len(parts))
		if round%3 == 0 {
			for i := range carry {
				carry[i] = 2*r.Float64() - 1
				exact[i] = carry[i]
			}
		}
		sums := make([]int64, len(parts))
		var sum int64
		for _, p := range parts {
			sum += p
		}
		out := make([]int64, len(parts))
		for range 1 + r.Intn(20) {
			total := r.Int63n(1 + sum/int64(1+r.Intn(5)))
			if r.Intn(4) == 0 {
				total = 0
			}
			sp.split(total, parts, out, carry)
			var got int64
			for i, x := range out {
				if x < 0 {
					t.Fatalf("round %d: split(%d, %v) = %v: a negative share", round, total, parts, out)
				}
				got += x
				sums[i] += x
				if sum > 0 {
					exact[i] += float64(total) * float64(parts[i]) / float64(sum)
				}
			}
			if got != total {
				t.Fatalf("round %d: split(%d, %v) = %v, adding up to %d", round, total, parts, out, got)
			}
		}
		tol := 1.0
		if round%3 == 0 {
			tol = 2
		}
		for i := range parts {
			if sum > 0 && math.Abs(float64(sums[i])-exact[i]) > tol+1e-9*exact[i] {
				t.Fatalf("round %d: part %d of %v got %d over the splits, want %g ± %g", round, i, parts, sums[i], exact[i], tol)
			}
		}
	}
}
