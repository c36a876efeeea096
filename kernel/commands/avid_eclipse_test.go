package commands

import (
	"testing"
)

// eclipseMapping is the paper's mapping for its first case study (§3.1.1),
// with the elided package names filled in for the demo's classes.
const eclipseMapping = `mapping eclipse <<
JavaProject class org.eclipse.jdt.internal.core.JavaProject
JDT-CORE    class org.eclipse.jdt.core.*
JDT-CORE    class org.eclipse.jdt.internal.core.*
JDT-UI      class org.eclipse.jdt.ui.*
JDT-UI      class org.eclipse.jdt.internal.ui.*
CORE        class org.eclipse.core.*
JDK         class java.*
end
`

// features reads, from cels of one entry each, what the paper's F-1 to F-3
// describe: the calls from JDT-CORE to JavaProject before the first call
// from JDT-UI to JDT-CORE and after it, and whether a second UI call comes,
// with the calls to JavaProject after it.
type features struct {
	before, after, uiCalls, afterSecond int64
}

func eclipseFeatures(t *testing.T, demo string) features {
	t.Helper()
	b := avidRun(t, "set max=64MiB\nload demo:"+demo+"\n"+eclipseMapping+"cels mapping=eclipse step=1 max=1000")[1]
	var f features
	var javaProject, atUI, atSecond int64
	for _, c := range jsonOf(t, b)["cels"].([]any) {
		totals := map[string]int64{}
		for _, a := range c.(map[string]any)["arcs"].([]any) {
			a := a.(map[string]any)
			totals[a["from"].(string)+"→"+a["to"].(string)] = int64(a["total"].(float64))
		}
		if ui := totals["JDT-UI→JDT-CORE"]; ui > f.uiCalls {
			f.uiCalls = ui
			if ui == 1 {
				atUI = javaProject // the total of the cel before: calls before the UI call
			} else if ui == 2 {
				atSecond = totals["JDT-CORE→JavaProject"]
			}
		}
		javaProject = totals["JDT-CORE→JavaProject"]
	}
	f.before, f.after = atUI, javaProject-atUI
	if f.uiCalls >= 2 {
		f.afterSecond = javaProject - atSecond
	}
	return f
}

// The AVID paper's first case study (§3.1), rebuilt as demo:eclipse: the
// cels show F-1 (20 calls to JavaProject before any call from JDT-UI), F-2
// (51 after it) and F-3 (a second call from JDT-UI, after which JavaProject
// is not called); the optimized build shows about the same 20, 23 after,
// and no second call.
func TestEclipseFeatures(t *testing.T) {
	for _, c := range []struct {
		demo string
		want features
	}{
		{"eclipse", features{before: 20, after: 51, uiCalls: 2, afterSecond: 0}},
		{"eclipse-optimized", features{before: 20, after: 23, uiCalls: 1}},
	} {
		if got := eclipseFeatures(t, c.demo); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.demo, got, c.want)
		}
	}
}
