package plotting

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"

	"github.com/proflens/proflens/compaction"
)

// goldenAngle spaces the hues of consecutive families as far apart as
// possible whatever their number.
const goldenAngle = 137.50776405003785

// palette colours names by structural closeness: one hue family per
// top-level name element (package, module), a hue shift within the family
// per second element (class, sub-package), a lightness per third element.
// It depends only on the names, never on the order nodes are met.
type palette struct {
	hue map[string]float64
	sub map[[2]string]int // (top, second element) → rank among the top's second elements
}

// newPalette gives each distinct top-level element of the view's profile a
// hue: sorted by name, the i-th at i·137.5° (mod 360); and ranks the second
// elements within each family. Without a call tree colour falls back to
// hashes of the elements. Linear in the profile's frames.
func newPalette(v *compaction.View) *palette {
	p := &palette{hue: map[string]float64{}, sub: map[[2]string]int{}}
	if v == nil || v.Tree == nil || v.Tree.Names == nil {
		return p
	}
	names := v.Tree.Names
	seen := map[int32]bool{}
	seen2 := map[[2]int32]bool{}
	var tops []string
	var subs [][2]string
	for _, e := range names.Elems {
		if len(e) > 0 && !seen[e[0]] {
			seen[e[0]] = true
			tops = append(tops, names.Strings[e[0]])
		}
		if len(e) > 1 && !seen2[[2]int32{e[0], e[1]}] {
			seen2[[2]int32{e[0], e[1]}] = true
			subs = append(subs, [2]string{names.Strings[e[0]], names.Strings[e[1]]})
		}
	}
	sort.Strings(tops)
	for i, t := range tops {
		p.hue[t] = math.Mod(float64(i)*goldenAngle, 360)
	}
	sort.Slice(subs, func(i, j int) bool {
		if subs[i][0] != subs[j][0] {
			return subs[i][0] < subs[j][0]
		}
		return subs[i][1] < subs[j][1]
	})
	for i := range subs {
		p.sub[subs[i]] = 0
		if i > 0 && subs[i][0] == subs[i-1][0] {
			p.sub[subs[i]] = p.sub[subs[i-1]] + 1
		}
	}
	return p
}

// colour returns the fill for a name split into elements, as #rrggbb.
func (p *palette) colour(elems []string) string {
	if len(elems) == 0 {
		return "#cccccc"
	}
	h, ok := p.hue[elems[0]]
	if !ok {
		h = float64(hash(elems[0]) % 360)
	}
	s, l := 0.62, 0.62
	if len(elems) > 1 {
		// Within the family, the i-th second element (sorted) gets a hue
		// offset spread by the golden ratio over ±24° and one of three
		// shades, so neighbours differ; without a call tree, a hash.
		i, ok := p.sub[[2]string{elems[0], elems[1]}]
		if !ok {
			i = int(hash(elems[1]) % 64)
		}
		h += (math.Mod(float64(i)*0.6180339887, 1) - 0.5) * 48
		l += float64(i%3-1) * 0.07
	}
	if len(elems) > 2 {
		l += float64(int(hash(elems[2])%3)-1) * 0.03 // 0.52 .. 0.72 in all
	}
	return hsl(math.Mod(h+360, 360), s, l)
}

func hash(s string) uint32 {
	f := fnv.New32a()
	f.Write([]byte(s))
	return f.Sum32()
}

// hsl converts hue (degrees), saturation and lightness (0..1) to #rrggbb.
func hsl(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	to := func(v float64) int { return int(math.Round((v + m) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", to(r), to(g), to(b))
}
