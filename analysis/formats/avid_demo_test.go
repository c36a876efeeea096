package formats

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/proflens/proflens/internal/golden"
)

// The AVID demos are Chrome traces of B/E spans and X events, written by
// the recorder below and checked here (go test -update rewrites them):
//
//   - demo:shop, a hand-sized recording whose calls between entities are
//     counted by hand in the kernel's AVID tests;
//   - demo:eclipse and demo:eclipse-optimized, the first case study of the
//     AVID paper (seed 001, §3.1, bug 10216 "filesystem is accessed too
//     often") rebuilt synthetically: before the user adds a jar, a worker
//     thread's job calls JavaProject 20 times from JDT-CORE (F-1); the
//     user's action is a call from JDT-UI to JDT-CORE, after which
//     JDT-CORE calls JavaProject 51 more times (F-2), each call asking the
//     file system (java.io) twice; then a second call from JDT-UI to
//     JDT-CORE makes no call to JavaProject (F-3). The optimized build
//     calls JavaProject 20 times before and 23 times after the action, and
//     has no second call.
func TestAVIDDemos(t *testing.T) {
	for name, build := range map[string]func(*recorder){"shop": shopDemo, "eclipse": eclipseDemo(51, true), "eclipse-optimized": eclipseDemo(23, false)} {
		r := &recorder{}
		build(r)
		golden.Check(t, "demo/"+name+".json", r.bytes())
	}
}

// recorder writes a Chrome trace: B/E pairs for calls that call others, X
// events for leaves, one event per line, times in µs.
type recorder struct {
	events []string
	tid    int
	open   []string
}

func (r *recorder) thread(tid int, name string) {
	r.tid = tid
	r.events = append(r.events, fmt.Sprintf(`{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":%q}}`, tid, name))
}

func (r *recorder) begin(ts int, name string) {
	r.open = append(r.open, name)
	r.events = append(r.events, fmt.Sprintf(`{"ph":"B","name":%q,"ts":%d,"pid":1,"tid":%d}`, name, ts, r.tid))
}

func (r *recorder) end(ts int) {
	name := r.open[len(r.open)-1]
	r.open = r.open[:len(r.open)-1]
	r.events = append(r.events, fmt.Sprintf(`{"ph":"E","name":%q,"ts":%d,"pid":1,"tid":%d}`, name, ts, r.tid))
}

func (r *recorder) leaf(ts, dur int, name string) {
	r.events = append(r.events, fmt.Sprintf(`{"ph":"X","name":%q,"ts":%d,"dur":%d,"pid":1,"tid":%d}`, name, ts, dur, r.tid))
}

func (r *recorder) bytes() []byte {
	var b bytes.Buffer
	b.WriteString("{\"traceEvents\":[\n")
	for i, e := range r.events {
		b.WriteString(e)
		if i+1 < len(r.events) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// shopDemo: the UI's Main.run calls View.render, which adds to the cart
// twice; the cart reads the store (which uses a HashMap) and prices the
// items; run ends with a helper of no entity. One event per µs.
func shopDemo(r *recorder) {
	r.thread(1, "main")
	r.begin(0, "ui.Main.run")
	r.begin(1, "ui.View.render")
	r.begin(2, "core.Cart.add")
	r.begin(3, "db.Store.get")
	r.leaf(4, 1, "java.util.HashMap.get")
	r.end(6)
	r.begin(7, "core.Price.total")
	r.leaf(8, 1, "java.util.HashMap.get")
	r.end(10)
	r.end(11)
	r.begin(12, "core.Cart.add")
	r.leaf(13, 1, "db.Store.get")
	r.end(15)
	r.end(16)
	r.leaf(17, 1, "helper")
	r.end(19)
}

// Eclipse's frames, by entity of the paper's mapping.
const (
	workerRun    = "org.eclipse.core.internal.jobs.Worker.run"                       // CORE
	getModel     = "org.eclipse.jdt.internal.core.JavaModelManager.getJavaModel"     // JDT-CORE
	rawClasspath = "org.eclipse.jdt.internal.core.JavaProject.getRawClasspath"       // JavaProject
	fileExists   = "java.io.File.exists"                                             // JDK
	mapGet       = "java.util.HashMap.get"                                           // JDK
	addJar       = "org.eclipse.jdt.internal.ui.wizards.BuildPathsBlock.addExternal" // JDT-UI
	setClasspath = "org.eclipse.jdt.internal.core.SetClasspathOperation.run"         // JDT-CORE
	refresh      = "org.eclipse.jdt.internal.ui.packageview.PackageExplorer.refresh" // JDT-UI
	container    = "org.eclipse.jdt.core.JavaCore.getClasspathContainer"             // JDT-CORE
)

// eclipseDemo records the case: after the user's action, JDT-CORE calls
// JavaProject `after` times; second adds the second call from JDT-UI.
func eclipseDemo(after int, second bool) func(*recorder) {
	return func(r *recorder) {
		r.thread(1, "main")
		r.thread(2, "Worker-0")
		r.begin(1000, workerRun)
		r.begin(1100, getModel)
		javaProject(r, 1200, 20)
		r.end(13300)
		r.end(13400)
		r.tid = 1
		r.begin(31200, addJar)
		r.begin(31300, setClasspath)
		javaProject(r, 31400, after)
		end := 31400 + 600*after
		r.end(end + 100)
		r.end(end + 200)
		if second {
			r.begin(80000, refresh)
			r.begin(80100, container)
			for i := range 5 {
				r.leaf(80200+100*i, 50, mapGet)
			}
			r.end(80800)
			r.end(80900)
		}
	}
}

// javaProject records n calls from JDT-CORE to JavaProject, 600 µs apart,
// each asking the file system twice, and JDT-CORE's own use of a HashMap
// between them.
func javaProject(r *recorder, ts, n int) {
	for i := range n {
		t := ts + 600*i
		r.begin(t, rawClasspath)
		r.leaf(t+50, 150, fileExists)
		r.leaf(t+250, 150, fileExists)
		r.end(t + 450)
		r.leaf(t+500, 50, mapGet)
	}
}
