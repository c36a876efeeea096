package phase

import (
	"fmt"
	"math"
	"math/bits"
)

// Hue returns phase id's position on JIVE's red-to-violet scale (seed 003
// §5): phase 1 at 0, phase 2 at 1, then bisection in the paper's order:
// 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875, 0.0625, … The empty phase
// has no hue (-1).
func Hue(id int) float64 {
	switch {
	case id <= 0:
		return -1
	case id == 1:
		return 0
	case id == 2:
		return 1
	}
	m := uint64(id - 2)      // 1, 2, 3, …
	level := bits.Len64(m)   // denominators 2, 4, 4, 8, 8, 8, 8, …
	j := m - 1<<(level-1)    // position within the level
	rev := bits.Reverse64(j) // bit-reverse j within level-1 bits
	if level > 1 {
		rev >>= 64 - uint(level-1)
	} else {
		rev = 0
	}
	return float64(2*rev+1) / float64(uint64(1)<<level)
}

// EmptyColor is the colour of the empty phase.
const EmptyColor = "#d9d9d9"

// MaxHueDegrees is where JIVE's scale ends: violet, 270° on the colour
// wheel (red is 0°).
const MaxHueDegrees = 270

// Color returns the "#rrggbb" colour of a hue on JIVE's scale (-1: the
// empty phase's grey), at fixed saturation and brightness.
func Color(hue float64) string {
	if hue < 0 {
		return EmptyColor
	}
	r, g, b := hsv(hue*MaxHueDegrees, 0.75, 0.9)
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

// hsv converts hue h in degrees, saturation s and value v to 8-bit RGB.
func hsv(h, s, v float64) (uint8, uint8, uint8) {
	c := v * s
	hp := h / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := v - c
	q := func(f float64) uint8 { return uint8(math.Round((f + m) * 255)) }
	return q(r), q(g), q(b)
}
