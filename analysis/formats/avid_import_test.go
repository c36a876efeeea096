package formats

import (
	"fmt"
	"testing"

	"github.com/proflens/proflens/internal/golden"
)

// demo:import is the second case study of the AVID paper (seed 001, §3.2,
// the "import from files" operation of Eclipse 0.107), rebuilt
// synthetically at about a hundredth of its size, as a Chrome trace of
// spans with N/D object events (checked here; go test -update rewrites
// it). Path keeps a location as one String and parses it on every call, so
// every call into Path calls the JDK's String methods and allocates
// Strings:
//
//   - 0–3 ms, the workbench's event loop: the UI calls the JDK 10 times
//     and Path twice (one JDK call and one String each);
//   - 3–4 ms, the UI calls the ImportWizard once; it makes 4 Paths (15 JDK
//     calls, 2 Strings each): by then Path has called the JDK 62 times (the
//     paper's F-1: 4 calls from ImportWizard, 62 from Path to the JDK);
//   - 5–29 ms, the import runs through Runtime, which resolves 100 resources
//     through Path.segments (8 JDK calls, 1 String each): at a third of the
//     run, still 4 calls from ImportWizard, 862 from Path to the JDK and 110
//     Strings (F-2: 4, 159,440 and over 21,000);
//   - 36–90 ms, the ImportWizard imports 36 files, each through
//     Path.append (13 JDK calls, 13 Strings, and a new Path): at the end, 40
//     calls from ImportWizard, 1,330 from Path to the JDK and 578 Strings
//     (F-3: 1,881, 253,368 and over 114,000);
//   - a collector thread frees Strings in three sweeps (at 30, 60 and 91
//     ms), each the oldest half of those alive.
func TestImportDemo(t *testing.T) {
	r := &objRecorder{}
	importDemo(r)
	golden.Check(t, "demo/import.json", r.bytes())
}

// objRecorder is a recorder that also writes object events: N when an
// object is made, D when it is freed, each naming its class and id.
type objRecorder struct {
	recorder
	next  int
	alive map[string][]int // per class, the ids alive, oldest first
}

func (r *objRecorder) alloc(ts int, class string) {
	r.next++
	if r.alive == nil {
		r.alive = map[string][]int{}
	}
	r.alive[class] = append(r.alive[class], r.next)
	r.events = append(r.events, fmt.Sprintf(`{"ph":"N","name":%q,"id":"0x%x","ts":%d,"pid":1,"tid":%d}`, class, r.next, ts, r.tid))
}

// sweep frees the oldest half of the objects of class alive, 1 µs apart
// from ts.
func (r *objRecorder) sweep(ts int, class string) {
	ids := r.alive[class]
	n := len(ids) / 2
	for i, id := range ids[:n] {
		r.events = append(r.events, fmt.Sprintf(`{"ph":"D","name":%q,"id":"0x%x","ts":%d,"pid":1,"tid":%d}`, class, id, ts+i, r.tid))
	}
	r.alive[class] = ids[n:]
}

// The import's frames and classes, by entity of the paper's mapping.
const (
	eventLoop   = "org.eclipse.ui.internal.Workbench.runEventLoop"                           // UI
	windowPaint = "org.eclipse.ui.internal.WorkbenchWindow.update"                           // UI
	importRun   = "org.eclipse.ui.actions.ImportResourcesAction.run"                         // UI
	finish      = "org.eclipse.ui.wizards.datatransfer.FileSystemImportWizard.performFinish" // ImportWizard
	importOp    = "org.eclipse.ui.wizards.datatransfer.ImportOperation.run"                  // ImportWizard
	importFile  = "org.eclipse.ui.wizards.datatransfer.ImportOperation.importFile"           // ImportWizard
	pathNew     = "org.eclipse.core.runtime.Path.<init>"                                     // Path
	pathSegs    = "org.eclipse.core.runtime.Path.segments"                                   // Path
	pathAppend  = "org.eclipse.core.runtime.Path.append"                                     // Path
	platformRun = "org.eclipse.core.runtime.Platform.run"                                    // Runtime
	resolve     = "org.eclipse.internal.runtime.ResourceTree.lookup"                         // Runtime
	pathClass   = "org.eclipse.core.runtime.Path"                                            // Path (a class)
	stringClass = "java.lang.String"                                                         // JDK (a class)
)

// stringCalls are the JDK calls Path makes that make no String, in turn;
// substring makes one, inside the JDK.
var stringCalls = []string{"java.lang.String.indexOf", "java.lang.String.charAt", "java.lang.String.length"}

const substring = "java.lang.String.substring"

// pathCall records a call into Path at ts that calls the JDK n times, 10
// µs apart, of which strings are substrings that make a String (the
// second, sixth… call, or the last ones) and, with newPath, makes a Path.
func pathCall(r *objRecorder, ts int, frame string, n, strings int, newPath bool) {
	r.begin(ts, frame)
	made := 0
	for i := range n {
		t := ts + 2 + 10*i
		if made < strings && (i%4 == 1 || n-i <= strings-made) {
			r.begin(t, substring)
			r.alloc(t+2, stringClass)
			r.end(t + 5)
			made++
			continue
		}
		r.leaf(t, 5, stringCalls[i%len(stringCalls)])
	}
	if newPath {
		r.alloc(ts+10*n+3, pathClass)
	}
	r.end(ts + 10*n + 5)
}

func importDemo(r *objRecorder) {
	r.thread(1, "main")
	r.thread(2, "Finalizer")
	r.tid = 1
	r.begin(0, eventLoop)
	for i := range 10 { // the workbench at work
		t := 100 + 250*i
		r.begin(t, windowPaint)
		r.leaf(t+50, 50, "java.util.HashMap.get")
		r.end(t + 150)
	}
	for i := range 2 {
		pathCall(r, 2600+150*i, pathNew, 1, 1, false)
	}
	r.begin(3000, importRun)
	r.begin(3050, finish) // the one call from UI to ImportWizard
	for i := range 4 {
		pathCall(r, 3100+200*i, pathNew, 15, 2, true)
	}
	r.begin(4000, importOp)
	r.begin(4100, platformRun)
	for i := range 100 {
		t := 5000 + 240*i
		r.begin(t, resolve)
		pathCall(r, t+10, pathSegs, 8, 1, false)
		r.end(t + 220)
	}
	r.end(29300)
	for i := range 36 {
		t := 36000 + 1500*i
		r.begin(t, importFile)
		pathCall(r, t+50, pathAppend, 13, 13, true)
		r.end(t + 1400)
	}
	r.end(90100)
	r.end(90200)
	r.end(90300)
	r.end(90400)
	r.tid = 2
	for _, t := range []int{30000, 60000, 91000} {
		r.sweep(t, stringClass)
	}
}
