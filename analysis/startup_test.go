package analysis

import (
	"slices"
	"strings"
	"testing"
)

// treeOf builds the call tree of stacks written "a;b;c", one sample each.
func treeOf(stacks ...string) *Tree {
	b := NewBuilder("test", ValueType{Type: "samples", Unit: "count"})
	for _, s := range stacks {
		var st []int32
		for _, name := range strings.Split(s, ";") {
			st = append(st, b.Frame(Frame{Name: name}))
		}
		b.Add(b.Stack(st), []int64{1}, 0, false, "", nil)
	}
	return NewTree(b.Finish())
}

// TestStartup: the start-up chains of C (callgrind's, with the loader's
// bare address), Go and the JVM are marked down to the program's entry;
// a placeholder over the program's code, a start-up name below the
// program's code and a lone address are not.
func TestStartup(t *testing.T) {
	for _, c := range []struct {
		stacks []string
		want   string
	}{
		{[]string{"0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;(below main);main;fib;fib", "0x000000000001ab70;_dl_start"},
			"(below main) (below main) 0x000000000001ab70 __libc_start_main@@GLIBC_2.34 _dl_start"},
		{[]string{"runtime.goexit;runtime.main;main.main;main.run", "runtime.goexit;runtime.gcBgMarkWorker", "runtime.mstart;runtime.mstart0;runtime.mstart1;runtime.schedule"},
			"runtime.goexit runtime.main runtime.mstart runtime.mstart0 runtime.mstart1"},
		{[]string{"start_thread;java_start;JavaThread::run();java.lang.Thread.run;app.Worker.run"},
			"JavaThread::run() java.lang.Thread.run java_start start_thread"},
		{[]string{"[unknown];app::main;std::rt::lang_start", "0x4000;f"}, ""},
	} {
		tree := treeOf(c.stacks...)
		var got []string
		for n, m := range tree.Startup() {
			if m {
				got = append(got, tree.Name(int32(n)))
			}
		}
		slices.Sort(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("Startup(%q) = %q, want %q", c.stacks, strings.Join(got, " "), c.want)
		}
	}
}

func TestIsPlaceholder(t *testing.T) {
	for name, want := range map[string]bool{"[unknown]": true, "??": true, "0x1ab70": true, "(below main)": true, "(root)": true,
		"[libc.so.6]": true, "(anonymous) app.js:3:9": false, "fib": false, "main.(*T).run": false, "(*T).run": false, "": true} {
		if got := IsPlaceholder(name); got != want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v", name, got, want)
		}
	}
}
