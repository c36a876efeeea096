package callgrind

import (
	"math"
	"math/bits"
	"slices"
	"sort"
)

// splitter divides totals (split), reusing its buffers.
type splitter struct {
	rem   []float64
	order []int
}

// split divides total into integers proportional to parts that add up to
// total exactly (the largest remainder method: each part gets the floor of
// its share, and the units left go to the largest remainders, the first
// part first on ties). When total equals the sum of the parts, each part
// gets itself. When the parts sum to zero, the first part gets everything.
// Negative numbers (xdebug's memory deltas) are shared in floating point,
// then rounded the same way. It writes the shares into out (as long as
// parts).
//
// carry, when not nil, holds per part what earlier splits rounded away
// from it (its exact shares less its integer ones, summed): a part whose
// earlier shares were rounded down is rounded up first, and carry is
// updated. Splits that share a part (a function's self cost divided among
// the nodes of its call paths) then add up to its exact total, to within
// what the last split leaves.
func (sp *splitter) split(total int64, parts, out []int64, carry []float64) {
	clear(out)
	var sum int64
	neg := total < 0
	for _, p := range parts {
		sum += p
		neg = neg || p < 0
	}
	switch {
	case len(parts) == 0:
		return
	case sum == total:
		copy(out, parts)
		return
	case sum == 0:
		out[0] = total
		return
	}
	rem := sp.buffers(len(parts)) // remainders, as fractions of a unit
	left := total
	for i, p := range parts {
		if neg {
			share := float64(total) * float64(p) / float64(sum)
			out[i] = int64(math.Floor(share))
			rem[i] = share - math.Floor(share)
		} else {
			hi, lo := bits.Mul64(uint64(total), uint64(p))
			q, r := bits.Div64(hi, lo, uint64(sum)) // hi < sum, since p ≤ sum
			out[i], rem[i] = int64(q), float64(r)/float64(sum)
		}
		if carry != nil {
			exact := float64(out[i]) + rem[i]
			c := math.Floor(rem[i] + carry[i])
			if !neg {
				c = max(c, -float64(out[i])) // a share stays ≥ 0
			}
			out[i] += int64(c)
			rem[i] += carry[i] - c
			carry[i] += exact // less the final share, below
		}
		left -= out[i]
	}
	order := sp.order
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for k := 0; left > 0 && len(order) > 0; k = (k + 1) % len(order) {
		out[order[k]]++
		left--
	}
	for k := 0; left < 0 && len(order) > 0; k = (k + 1) % len(order) {
		if i := order[len(order)-1-k]; neg || out[i] > 0 {
			out[i]--
			left++
		}
	}
	if carry != nil {
		for i := range carry {
			carry[i] -= float64(out[i])
		}
	}
}

// buffers readies the remainders and the order for n parts.
func (sp *splitter) buffers(n int) []float64 {
	sp.rem, sp.order = slices.Grow(sp.rem[:0], n)[:n], slices.Grow(sp.order[:0], n)[:n]
	for i := range sp.order {
		sp.order[i] = i
	}
	return sp.rem
}

// ratio is a scale factor num/den for call counts.
type ratio struct{ num, den int64 }

var one = ratio{1, 1}

// of returns n scaled by r, rounded to the nearest integer (halves up).
func (r ratio) of(n int64) int64 {
	if r.num == r.den || n == 0 {
		return n
	}
	if r.den <= 0 || r.num <= 0 || n < 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(r.num))
	lo, carry := bits.Add64(lo, uint64(r.den/2), 0)
	hi += carry
	if hi >= uint64(r.den) {
		return math.MaxInt64 // more than int64 holds: n × num/den overflows
	}
	q, _ := bits.Div64(hi, lo, uint64(r.den))
	return int64(min(q, math.MaxInt64))
}
