package analysis

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// genName is a generated frame name with what its language's rule says of
// it: the display, and the top unit (level 1).
type genName struct {
	frame   Frame
	display string
	top     string
}

// generators make random names of each language from random identifiers,
// writing the display and top unit independently of the splitters.
var generators = map[string]func(r *rand.Rand) genName{
	"python": func(r *rand.Rand) genName {
		mod := idents(r, 1+r.IntN(3), "_")
		fn := ident(r, "_")
		line := strconv.Itoa(1 + r.IntN(900))
		dir := []string{"/usr/lib/python3/dist-packages/", "/home/u/.venv/lib/python3.12/site-packages/", "/opt/conda/lib/python3.11/"}[r.IntN(3)]
		name := fn + " (" + dir + strings.Join(mod, "/") + ".py:" + line + ")"
		return genName{Frame{Name: name}, strings.Join(mod, ".") + "." + fn + ":" + line, mod[0]}
	},
	"javascript": func(r *rand.Rand) genName {
		pkg := ident(r, "-")
		if r.IntN(2) == 0 {
			pkg = "@" + ident(r, "-") + "/" + pkg
		}
		path := append([]string{pkg}, idents(r, 1+r.IntN(3), "_")...)
		fn := ident(r, "_")
		pos := ":" + strconv.Itoa(1+r.IntN(900)) + ":" + strconv.Itoa(1+r.IntN(80))
		url := "file:///home/u/app/node_modules/" + strings.Join(path, "/") + ".js"
		return genName{Frame{Name: fn + " " + url + pos}, strings.Join(path, "/") + ".js " + fn + pos, pkg}
	},
	"cpp": func(r *rand.Rand) genName {
		scopes := idents(r, 1+r.IntN(4), "_")
		q := strings.Join(scopes, "::")
		top := scopes[0]
		if r.IntN(2) == 0 {
			q += "<" + ident(r, "_") + "::" + ident(r, "_") + ", int>"
			if len(scopes) == 1 {
				top = q // a class template in the global namespace
			}
		}
		fn := ident(r, "_") + "(" + ident(r, "_") + "::" + ident(r, "_") + " const&, char const*)"
		ret := []string{"", "bool ", "std::vector<int, std::allocator<int> > "}[r.IntN(3)]
		disp := q + "::" + fn
		if ret != "" {
			disp += " -> " + strings.TrimSuffix(ret, " ")
		}
		return genName{Frame{Name: ret + q + "::" + fn}, disp, top}
	},
	"rust": func(r *rand.Rand) genName {
		path := idents(r, 2+r.IntN(3), "_")
		q := strings.Join(path, "::")
		if r.IntN(2) == 0 {
			m := ident(r, "_")
			return genName{Frame{Name: "<" + q + "<T>>::" + m}, q + "<T>::" + m, path[0]}
		}
		return genName{Frame{Name: q + "::{{closure}}"}, q + "::{{closure}}", path[0]}
	},
	"dotnet": func(r *rand.Rand) genName {
		asm := strings.Join(idents(r, 1+r.IntN(3), ""), ".")
		ns := strings.Join(idents(r, 1+r.IntN(3), ""), ".")
		name := asm + "!" + ns + "." + ident(r, "") + "+" + ident(r, "") + "." + ident(r, "") + "(int32,class System.String)"
		return genName{Frame{Name: name}, name, asm}
	},
	"native": func(r *rand.Rand) genName {
		fn := ident(r, "_") + []string{"", "@@GLIBC_2.2.5", ".isra.0", ".cold"}[r.IntN(4)]
		lib := []string{"libc.so.6", "libpthread-2.19.so", "[kernel.kallsyms]", "dd"}[r.IntN(4)]
		path := lib
		if lib[0] != '[' {
			path = "/usr/lib/x86_64-linux-gnu/" + lib
		}
		return genName{Frame{Name: fn, Lib: path}, lib + "`" + fn, lib}
	},
	"go": func(r *rand.Rand) genName {
		mod := "github.com/" + ident(r, "-") + "/" + ident(r, "-")
		name := mod + "/p" + ident(r, "") + ".(*" + ident(r, "") + ")." + ident(r, "") + ".func1"
		return genName{Frame{Name: name}, name, mod}
	},
}

// TestSplitGenerated checks, for random names of every language, the
// elements of NewNames: joined, they give the display back; the top unit
// is the language's; each level's prefix (Names.Prefix) is a prefix of the
// next level's; no element is empty, and none but the last holds a
// parameter list or a return type.
func TestSplitGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 29))
	for lang, gen := range generators {
		b := NewBuilder(lang, ValueType{Type: "samples", Unit: "count"})
		var gens []genName
		for range 2000 {
			g := gen(r)
			b.Frame(g.frame)
			gens = append(gens, g)
		}
		p := b.Finish()
		n := NewNames(p)
		for _, g := range gens {
			f := int32(slices.IndexFunc(p.Frames, func(fr Frame) bool { return fr == g.frame }))
			checkGenerated(t, lang, g, n, f)
		}
	}
}

// checkGenerated checks the elements of frame f, generated as g.
func checkGenerated(t *testing.T, lang string, g genName, n *Names, f int32) {
	t.Helper()
	if disp := n.Prefix(f, n.Len(f)); g.display != "" && disp != g.display {
		t.Fatalf("%s: %q displays as %q, want %q", lang, g.frame.Name, disp, g.display)
	}
	if top := n.Prefix(f, 1); top != g.top {
		t.Fatalf("%s: %q has top unit %q, want %q", lang, g.frame.Name, top, g.top)
	}
	for k := 1; k < n.Len(f); k++ {
		if !strings.HasPrefix(n.Prefix(f, k+1), n.Prefix(f, k)) {
			t.Fatalf("%s: %q: level %d %q is no prefix of level %d %q", lang, g.frame.Name, k, n.Prefix(f, k), k+1, n.Prefix(f, k+1))
		}
	}
	for i, id := range n.Elems[f] {
		e := n.Strings[id]
		if e == "" {
			t.Fatalf("%s: %q: element %d is empty", lang, g.frame.Name, i)
		}
		if i < n.Len(f)-1 && (strings.Contains(e, "(int32") || strings.Contains(e, " const&") || strings.Contains(e, " -> ")) {
			t.Fatalf("%s: %q: element %q before the last holds a parameter list or return type", lang, g.frame.Name, e)
		}
	}
}

// ident returns a random identifier; sep is a character it may hold.
func ident(r *rand.Rand, sep string) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var b strings.Builder
	b.WriteByte(letters[r.IntN(len(letters))])
	for range r.IntN(8) {
		switch c := r.IntN(12); {
		case c == 0 && sep != "":
			b.WriteString(sep)
			b.WriteByte(letters[r.IntN(26)])
		case c == 1:
			b.WriteByte(byte('0' + r.IntN(10)))
		default:
			b.WriteByte(letters[r.IntN(len(letters))])
		}
	}
	return b.String()
}

// idents returns n random identifiers.
func idents(r *rand.Rand, n int, sep string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = ident(r, sep)
	}
	return out
}
