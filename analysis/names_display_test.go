package analysis

import (
	"strings"
	"testing"
)

// TestNamesShow: the views leave the directory that all of a profile's
// paths share out of its names. The frames are real (the file each comes
// from is named).
func TestNamesShow(t *testing.T) {
	for _, c := range []struct {
		file   string
		lang   Lang
		frames []string
		common string
		show   []string
	}{
		{"speedscope sample/profiles/Chrome/65/sucrase.cpuprofile", LangJS, []string{
			"processRegion /Users/alanpierce/code/sucrase/build/src/augmentTokens.js:26:18",
			"(anonymous) /Users/alanpierce/code/sucrase/build/benchmark/profile.js:1:11",
			"(garbage collector)",
		}, "", []string{
			"src/augmentTokens.js processRegion:26:18",
			"benchmark/profile.js (anonymous):1:11",
			"(garbage collector)",
		}},
		{"speedscope sample/profiles/Chrome/65/simple-timeline.json", LangJS, []string{
			"a file:///Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js:1:11",
		}, "", []string{"simple.js a:1:11"}},
		{"firefox-profiler fixtures/upgrades/hello.cjs-20231120T211435.cpuprofile", LangJS, []string{
			"(anonymous) file:///C:/Temp/hello.cjs:1:1",
		}, "", []string{"hello.cjs (anonymous):1:1"}},
		{"py-spy style names (DESIGN.md)", LangPython, []string{
			"run (/usr/lib/python3.11/site-packages/flask/app.py:12)", "handle (/srv/shop/src/shop/views.py:40)",
		}, "", []string{"flask.app.run:12", "views.handle:40"}},
		{"parca fib.pb.gz", LangGo, []string{"main.fib", "runtime.main"}, "", []string{"main.fib", "runtime.main"}},
	} {
		b := NewBuilder("test", ValueType{Type: "samples", Unit: "count"})
		b.Profile().Lang = c.lang
		for _, f := range c.frames {
			b.Add(b.Stack([]int32{b.Frame(Frame{Name: f})}), []int64{1}, 0, false, "", nil)
		}
		n := NewNames(b.Finish())
		if n.Common != c.common {
			t.Errorf("%s: Common = %q, want %q", c.file, n.Common, c.common)
		}
		for i, f := range c.frames {
			if got := n.Show(f); got != c.show[i] {
				t.Errorf("%s: Show(%q) = %q, want %q", c.file, f, got, c.show[i])
			}
			if full := n.Prefix(int32(i), 99); n.Short(full) != full && n.Common+n.Short(full) != full {
				t.Errorf("%s: Short(%q) = %q does not give back the name after %q", c.file, full, n.Short(full), n.Common)
			}
		}
		if strings.HasSuffix(c.common, "/") == (c.common == "") {
			t.Errorf("%s: common directory %q lacks its trailing /", c.file, c.common)
		}
	}
}
