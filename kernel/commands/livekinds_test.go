package commands

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live"
)

// TestAttachKinds: attach NAME kinds=… on a running demo target changes
// what it collects from now on: a new kind's series starts (NAME_KIND), a
// kind left out stops, its profile keeping its windows; kinds that cannot
// be collected are refused and change nothing.
func TestAttachKinds(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	run := func(code string) string { t.Helper(); return mustRun(t, s, code).Text() }
	run("attach demo:phases as bg budget=10% kinds=cpu background=true")
	waitWindows(t, s, "bg", 1)
	if got := run("attach bg kinds=goroutine,cpu"); !strings.Contains(got, "bg collects goroutine,cpu from now on") {
		t.Errorf("attach bg kinds=goroutine,cpu answered %q", got)
	}
	waitWindows(t, s, "bg_goroutine", 1)
	got := run("attach bg kinds=goroutine")
	if !strings.Contains(got, "bg collects goroutine from now on") || !strings.Contains(got, "not collected but by a trigger: cpu (profile bg, ") {
		t.Errorf("attach bg kinds=goroutine answered %q", got)
	}
	cpu := kindWindows(statusOf(t, s, "bg"), live.CPU)
	goroutines := kindWindows(statusOf(t, s, "bg"), live.Goroutine)
	poll(t, s, "three goroutine windows more", func() bool {
		return kindWindows(statusOf(t, s, "bg"), live.Goroutine) >= goroutines+3
	})
	if n := kindWindows(statusOf(t, s, "bg"), live.CPU); n > cpu+1 { // a window in flight may finish
		t.Errorf("%d cpu windows after cpu was left out, %d before", n, cpu)
	}
	if s.Get("bg") == nil || len(s.Get("bg").Profile.Intervals) < 2 {
		t.Errorf("the cpu profile bg lost its windows")
	}
	for code, want := range map[string]string{"attach bg kinds=trace": "trace needs cpu", "attach bg kinds=cpu,nope": `"nope" is not a kind`} {
		if _, err := RunForTest(t, s, code); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", code, err, want)
		}
	}
	if got := run("attach bg kinds=goroutine"); !strings.Contains(got, "bg collects goroutine from now on") {
		t.Errorf("after the refused kinds, attach bg kinds=goroutine answered %q", got)
	}
	run("detach bg")
}

// kindWindows is the windows of kind k in st.
func kindWindows(st live.Status, k live.Kind) int {
	for _, ks := range st.Kinds {
		if ks.Kind == k {
			return ks.Windows
		}
	}
	return 0
}
