package plotting

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strings"

	"github.com/proflens/proflens/compaction"
)

// Colours follow the names, so that a package has the same colour in every
// profile of a program, and related names have related colours (ProfVis's
// hue by structural closeness):
//
//   - The colour wheel (OKLCH, where equal steps look equal, see oklch) has
//     places: hueSlots hues 10° apart, the even hues in a dark and a light
//     shade, the odd ones in a middle shade. Places of one lightness are at
//     least 20° apart, and hues next to each other differ in lightness, so
//     any two places can be told apart.
//   - A top-level name element (package, module, namespace) wants a place
//     chosen by hashes of its name: its family's (its path up to the last
//     segment, see family) gives a base hue, its last segment's a step of up
//     to two hues from it, so the packages of one organisation or module sit
//     side by side on the wheel; its whole name's the shade of an even hue.
//   - A name takes the place it wants unless another top-level name of the
//     profile wants it too; of those, the first by name keeps it and the
//     others take the nearest place that no name wants or has (spread). So
//     two names of one profile never share a colour (up to places names),
//     and a name moves only when the profile holds another name that wants
//     its place: two profiles of one program, which hold mostly the same
//     packages, look alike.
//   - A second element (class, sub-package) keeps its top's hue and takes
//     one of shadeCells shades (two chromas, three lightnesses) by the
//     same rule among the second elements of that top; a third element
//     nudges the lightness by its hash.
const (
	hueSlots   = 36
	places     = hueSlots / 2 * 3
	shadeCells = 6
)

// wheel returns the hue (degrees) and lightness of place k: the places of
// each pair of hues (2m, 2m+1) are 3m (hue 2m, dark), 3m+1 (hue 2m, light)
// and 3m+2 (hue 2m+1, middle).
func wheel(k int) (hue, light float64) {
	h := k / 3 * 2
	if k%3 == 2 {
		h++
	}
	return float64(h) * 360 / hueSlots, lightness[k%3]
}

// lightness is the OKLCH lightness of a place by k mod 3: dark, light,
// middle. Black labels stay legible on the darkest (contrast 5:1 or more).
var lightness = [3]float64{0.66, 0.84, 0.75}

// chroma is the chroma of a top-level name's colour, where sRGB has it.
const chroma = 0.14

// palette colours name elements by the rules above. It depends only on the
// profile's names, never on weights, ranks or the order nodes are met.
type palette struct {
	place map[string]int    // top-level name → place
	shade map[[2]string]int // (top, second element) → shade cell
}

// newPalette places the top-level names and the second elements of the
// view's profile.
func newPalette(v *compaction.View) *palette {
	var tops []string
	seconds := map[string][]string{} // top → its second elements
	pairs := map[[2]string]bool{}
	profileNames(v, func(e []string) {
		if _, ok := seconds[e[0]]; !ok {
			tops = append(tops, e[0])
			seconds[e[0]] = nil
		}
		if len(e) > 1 && !pairs[[2]string{e[0], e[1]}] {
			pairs[[2]string{e[0], e[1]}] = true
			seconds[e[0]] = append(seconds[e[0]], e[1])
		}
	})
	p := &palette{place: spread(tops, places, topPlace), shade: map[[2]string]int{}}
	for top, ss := range seconds {
		for s, c := range spread(ss, shadeCells, shadeCell) {
			p.shade[[2]string{top, s}] = c
		}
	}
	return p
}

// profileNames calls add with the first one or two name elements of the
// frames of v's profile, once per distinct pair of elements (linear in the
// profile's frames), or of v's nodes when v has no call tree. add may keep
// the strings, not the slice, which is reused.
func profileNames(v *compaction.View, add func([]string)) {
	if v == nil {
		return
	}
	if v.Tree == nil || v.Tree.Names == nil {
		for _, i := range v.Preorder() {
			add(elements(v, i))
		}
		return
	}
	names := v.Tree.Names
	seen := map[[2]int32]bool{}
	var e [2]string
	for _, f := range names.Elems {
		n := min(len(f), 2)
		key := [2]int32{-1, -1}
		copy(key[:], f[:n])
		if n == 0 || seen[key] {
			continue
		}
		seen[key] = true
		for k := range n {
			e[k] = names.Strings[f[k]]
		}
		add(e[:n])
	}
}

// topPlace is the place a top-level name wants: the hue of its family's
// hash, moved by up to two hues by the hash of its last segment; for an
// even hue, the shade of its own hash.
func topPlace(top string) int {
	fam, own := family(top)
	h := int(hash(fam) % hueSlots)
	if own != "" {
		h += int(hash(own)%5) - 2
	}
	h = (h + hueSlots) % hueSlots
	if h%2 == 1 {
		return h/2*3 + 2
	}
	return h/2*3 + int(hash(top)%2)
}

// shadeCell is the shade a second element wants.
func shadeCell(second string) int { return int(hash(second) % shadeCells) }

// family splits a top-level name into the family it belongs to and its
// own last segment: a path up to its last slash ("github.com/conprof" and
// "db", "golang.org/x" and "net"; a major version stays with its module:
// "github.com/grpc-ecosystem" and "go-grpc-middleware/v2"), a dotted name
// of three parts or more up to its last dot ("org.apache" and "axis"). Any
// other name (runtime, std, lib1, an origin https://host) is a family of
// its own, with own "".
func family(top string) (fam, own string) {
	if strings.Contains(top, "://") {
		return top, ""
	}
	if i := strings.LastIndex(top, "/"); i > 0 {
		if last := top[i+1:]; isMajor(last) {
			i = strings.LastIndex(top[:i], "/")
		}
		if i > 0 {
			return top[:i], top[i+1:]
		}
		return top, ""
	}
	if strings.Count(top, ".") >= 2 {
		i := strings.LastIndex(top, ".")
		return top[:i], top[i+1:]
	}
	return top, ""
}

// isMajor reports whether a path segment is a major version ("v2").
func isMajor(seg string) bool {
	return len(seg) > 1 && seg[0] == 'v' && strings.Trim(seg[1:], "0123456789") == ""
}

// spread places names (distinct) among n places on a circle. A name that
// no other of the names wants the place of takes the place want gives it.
// Of names that want the same place, in name order, the first takes it and
// the others the nearest place that no name wants or has (trying one step
// right, one left, two right, ...); with more names than places, the rest
// keep the place they want. O(len(names)·n).
func spread(names []string, n int, want func(string) int) map[string]int {
	sort.Strings(names)
	wants := make([]int, n)
	for _, s := range names {
		wants[want(s)]++
	}
	out := make(map[string]int, len(names))
	taken := make([]bool, n)
	for _, s := range names { // alone on their place: they never move
		if k := want(s); wants[k] == 1 {
			out[s], taken[k] = k, true
		}
	}
	for _, s := range names {
		if _, ok := out[s]; !ok {
			k := nearestFree(taken, wants, want(s))
			out[s], taken[k] = k, true
		}
	}
	return out
}

// nearestFree returns place w when it is free, else the nearest place that
// no name has or wants, else w.
func nearestFree(taken []bool, wants []int, w int) int {
	n := len(taken)
	if !taken[w] {
		return w
	}
	for d := 1; d <= n/2; d++ {
		for _, k := range [2]int{(w + d) % n, (w - d + n) % n} {
			if !taken[k] && wants[k] == 0 {
				return k
			}
		}
	}
	return w
}

// colour returns the fill for a name split into elements, as #rrggbb.
func (p *palette) colour(elems []string) string {
	if len(elems) == 0 {
		return "#cccccc"
	}
	k, ok := p.place[elems[0]]
	if !ok {
		k = topPlace(elems[0])
	}
	h, l := wheel(k)
	share := 1.0
	if len(elems) > 1 {
		cell, ok := p.shade[[2]string{elems[0], elems[1]}]
		if !ok {
			cell = shadeCell(elems[1])
		}
		share = [2]float64{0.7, 1}[cell%2]
		l += 0.05 * float64(cell/2-1)
	}
	if len(elems) > 2 {
		l += 0.015 * float64(int(hash(elems[2])%3)-1)
	}
	return oklch(l, share, h)
}

// hash is FNV-1a of s, mixed (MurmurHash3's finalizer) so that names
// differing in their last letter ("lib1", "lib2") land far apart.
func hash(s string) uint32 {
	f := fnv.New32a()
	f.Write([]byte(s))
	h := f.Sum32()
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// oklch returns, as #rrggbb, the colour of lightness l (0..1) and hue h
// (degrees) in OKLCH, a polar form of the OKLab colour space (Björn
// Ottosson, 2020; CSS Color 4), with share (0..1] of the chroma: of
// chroma, or of the most that sRGB shows at l and h when that is less.
// Equal steps of hue or lightness in OKLCH look like equal steps whatever
// the hue, which HSL's do not (its greens are alike and its blues dark).
func oklch(l, share, h float64) string {
	a, b := math.Cos(h*math.Pi/180), math.Sin(h*math.Pi/180)
	c := chroma
	for c > 0 {
		if _, ok := oklabRGB(l, c*a, c*b); ok {
			break
		}
		c -= 0.005
	}
	c = max(c, 0) * share
	rgb, _ := oklabRGB(l, c*a, c*b)
	return rgb
}

// oklabRGB converts OKLab to #rrggbb, and reports whether the colour is
// inside sRGB.
func oklabRGB(l, a, b float64) (string, bool) {
	cube := func(x float64) float64 { return x * x * x }
	lc := cube(l + 0.3963377774*a + 0.2158037573*b)
	mc := cube(l - 0.1055613458*a - 0.0638541728*b)
	sc := cube(l - 0.0894841775*a - 1.2914855480*b)
	lin := [3]float64{
		4.0767416621*lc - 3.3077115913*mc + 0.2309699292*sc,
		-1.2684380046*lc + 2.6097574011*mc - 0.3413193965*sc,
		-0.0041960863*lc - 0.7034186147*mc + 1.7076147010*sc,
	}
	var out [3]int
	for i, v := range lin {
		if v < -1e-4 || v > 1+1e-4 {
			return "", false
		}
		v = math.Min(math.Max(v, 0), 1)
		if v <= 0.0031308 {
			v *= 12.92
		} else {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		}
		out[i] = int(math.Round(v * 255))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2]), true
}
