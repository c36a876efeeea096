package commands

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// everyAVIDCommand runs every AVID command, and the views that a mapping
// as granularity changes, on an evented recording under a mapping, and
// returns the outputs' text.
func everyAVIDCommand(t *testing.T, load, mapping, step string) string {
	t.Helper()
	s := kernel.NewSession(t.TempDir(), testTable())
	code := load + " as rec\n" + mapping + `
info
entities mapping=m
cels mapping=m
cels mapping=m step=` + step + `
export cels rec-cels.html
compare-sampling mapping=m
sample c1=2 as c1
sample rec c2=3 as c2
sample rec c3=1ms as c3
entities c1 mapping=m
entities c2 mapping=m
cels c2 mapping=m
level rec using=m
show rec
flame rec
tree rec
top rec
level rec 2
view rec
`
	rec, err := RunForTest(t, s, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, rec.Text())
	}
	page, err := os.ReadFile(filepath.Join(s.Dir, "rec-cels.html"))
	if err != nil || !strings.HasPrefix(string(page), "<!DOCTYPE html>") {
		t.Errorf("export cels wrote %d bytes, %v; want an HTML page", len(page), err)
	}
	return rec.Text()
}

// A real evented file through every command: speedscope's own evented
// sample (from the shared corpus, kept in analysis/speedscope/testdata with
// its origin and licence), whose unit is no time, so phases are absent.
func TestAVIDSpeedscopeEvented(t *testing.T) {
	path, err := filepath.Abs("../../analysis/speedscope/testdata/speedscope-evented.json")
	if err != nil {
		t.Fatal(err)
	}
	const mapping = "mapping m <<\nTop class a\nMiddle class b\nLeaves class c\nend"
	out := everyAVIDCommand(t, "load "+path, mapping, "3")
	out = strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"calls 5 (an evented recording", "Top Middle 1", "Middle Leaves 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A real Chrome trace of the shared corpus, read as an evented recording
// of its B/E/X spans: Chrome's own instrumentation of a page running
// speedscope's simple.js, by task-scheduling, IPC, script and rendering
// entities.
func TestAVIDChromeTimeline(t *testing.T) {
	path, err := filepath.Abs("../../../shared/corpus/speedscope/sample/profiles/Chrome/65/simple-timeline.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the shared corpus is not beside the repository: %v", err)
	}
	const mapping = `mapping m <<
Scheduler class MessageLoop::*
Scheduler class ThreadControllerImpl::*
Scheduler class TaskGraphRunner::*
Scheduler class MessagePumpLibevent::*
IPC       class ChannelMojo::*
Script    class FunctionCall
Script    class EvaluateScript
Script    class v8.*
Script    class RunMicrotasks
Rendering class Layout
Rendering class UpdateLayoutTree
Rendering class UpdateLayer*
Rendering class Paint
Rendering class CompositeLayers
Rendering class RasterTask
end`
	out := everyAVIDCommand(t, "load "+path+" format=chrome-spans", mapping+"\nphases rec", "50ms")
	out = strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"calls: exact, from the entry events", "Scheduler Rendering 401", "(other) Script 66"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// The same commands give the same bytes in two sessions.
func TestAVIDDeterministic(t *testing.T) {
	code := shopCell + "entities mapping=shop\ncels mapping=shop step=3\ncompare-sampling mapping=shop\nsample c2=3\nlevel using=shop\nshow"
	a, b := avidRun(t, code), avidRun(t, code)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two runs of the AVID commands differ")
	}
}

// Bad input gets an error that says what is wrong and what is needed; a
// line that matches nothing is a note.
func TestAVIDBadInput(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"mapping m <<\nUI class ui.*\nCore ui.core.*\nend", "mapping m: line 2 of the mapping (line 3 of the cell): expected `ENTITY class PATTERN` (three words), found 2 words"},
		{"mapping m <<\nUI klass ui.*\nend", `mapping m: line 1 of the mapping (line 2 of the cell): expected class (or package, module, namespace, file, function) after the entity UI, found "klass"`},
		{"mapping m <<\nUI class ui.*", "<< opens a block that no line `end` closes"},
		{"mapping m <<\n# nothing\nend", "mapping m: no mapping lines"},
		{"load demo:profvis-toy\ncels", "cels profvis-toy: no time order: cels and sampling need an evented recording"},
		{"load demo:profvis-toy\ncels step=2", "cels profvis-toy: no time order"},
		{"load demo:phasedemo\nsample c2=10", "sample phasedemo: control-flow sampling thins an evented recording"},
		{"load demo:phasedemo\ncompare-sampling", "compare-sampling phasedemo: control-flow sampling thins an evented recording"},
		{"load demo:shop\nsample c1=2 c2=3", "c2=3: a range has one control-flow sampling, and C-1 is given already"},
		{"load demo:shop\nsample c1=1", "C-1 every 1 events keeps them all"},
		{"load demo:shop\nsample c2=1000", "sample shop: C-2 every 1000 events keeps nothing of the recording's 20 events and 0 memory events: choose a smaller x"},
		{"load demo:shop\nsample m1=2", "sample shop: memory sampling needs memory events"},
		{"load demo:shop\nsample", "give a sampling (c1=N, c2=N or c3=D, and m1=N, m2=D or m3=N|D) or a control"},
		{"load demo:shop\nsample nosuch c2=2", "nosuch is neither a loaded profile nor a control"},
		{"load demo:shop\nsample c2=2 <<\nc1=2\nend", "give a control or sampling options (c2=2), not both"},
		{"load demo:shop\nsample <<\nc2=2 from 5us to 2us\nend", "sample: line 1 of the control (line 3 of the cell): the range ends (2µs) before it starts (5µs)"},
		{"load demo:shop\nsample <<\nc2=2 from 1us to 5us\nc1=2 from 4us\nend", "line 2 of the control (line 4 of the cell): the range overlaps the one from 1µs to 5µs"},
		{"load demo:shop\nsample <<\nc9=2\nend", `line 1 of the control (line 3 of the cell): "c9=2" is not a sampling`},
		{"load demo:shop\nsample m3=x", "m3=x: write a whole number of events, 1 or more"},
		{"load demo:shop\ncels step=0", "step=0: write a number of entries (step=100) or a duration (step=10ms), above 0"},
		{"load demo:shop\ncels step=often", "step=often: write a number of entries"},
		{"load demo:shop\ncels step=1 max=3", "step=1 cuts 10 entries into 10 cels, more than the limit of 3: use step=4 or more"},
		{"load demo:shop\nentities mapping=nosuch.map", "mapping=nosuch.map: no mapping of that name in the session, and the file cannot be read"},
		{"load demo:shop\nexport cels x.html", "no cels of shop yet: run cels first"},
		{"load demo:shop\nexport pictures x.html", "write export FILE, or export cels FILE.html"},
		{"load demo:shop\nlevel 2 using=m", "using= sets every frame to its entity: give no N and no where="},
		{"load demo:shop\nlevel", "level \"\": write a whole number"},
	} {
		_, err := RunForTest(t, nil, c.code)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.code, err, c.want)
		}
	}
	rec, err := RunForTest(t, nil, shopCell+"mapping extra <<\nUI class ui.*\nNet package net/http.*\nend\nentities mapping=extra")
	if err != nil || !strings.Contains(rec.Text(), "note: 1 mapping line matches no frame: line 2: Net package net/http.*") {
		t.Errorf("a line matching nothing: error %v, output %s; want a note naming line 2", err, rec.Text())
	}
}

// A mapping read from a file, and level using= making the views by entity
// until a plain level goes back to frame names.
func TestMappingFileAndLevelUsing(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if err := os.WriteFile(filepath.Join(s.Dir, "shop.map"), []byte("UI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := RunForTest(t, s, "load demo:shop\nlevel using=shop.map\nentities mapping=shop.map")
	if err != nil {
		t.Fatal(err)
	}
	view := rec.Bundles()[1]["text/plain"].(string) // level's view; entities' picture and tables follow
	for _, want := range []string{"every frame compacted to its entity by the mapping shop.map", "UI [19us", "Core [12us", "(other) [1us"} {
		if !strings.Contains(view, want) {
			t.Errorf("level using= view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "ui.Main") {
		t.Errorf("level using= view shows frame names:\n%s", view)
	}
	rec, err = RunForTest(t, s, "filter focus=Cart\nview")
	if err != nil || !strings.Contains(rec.Text(), "Core [12us") || strings.Contains(rec.Text(), "core.Cart") {
		t.Errorf("a standing filter after level using= keeps the entities: %v\n%s", err, rec.Text())
	}
	rec, err = RunForTest(t, s, "filter off\nlevel 99")
	if err != nil || !strings.Contains(rec.Text(), "ui.Main.run") {
		t.Errorf("level 99 after using=: %v\n%s", err, rec.Text())
	}
}

// A heap profile has allocation values: entities shows them per entity (and
// no arcs: a heap profile has no call counts, which the answer says). The
// oracle: go tool pprof -sample_index=alloc_objects -top -nodefraction=0
// gives regexp's and regexp/syntax's functions 14,295 objects flat.
func TestEntitiesAllocations(t *testing.T) {
	path, err := filepath.Abs("../../analysis/testdata/heap.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	bs := avidRun(t, "set pictures=svg\nload "+path+" as heap\nentities")
	pic, b := bs[1], bs[2]
	doc := jsonOf(t, b)
	arcsText := bs[3]["text/plain"].(string)
	var alloc float64
	for _, e := range doc["entities"].([]any) {
		if e := e.(map[string]any); e["name"] == "regexp" {
			alloc = e["alloc"].(float64)
		}
	}
	text := b["text/plain"].(string)
	if alloc != 14295 || doc["source"] != "none" || !strings.Contains(text, "allocations (alloc_objects)") || !strings.Contains(arcsText, "calls: none") {
		t.Errorf("heap entities: regexp allocations %v, source %v; want 14295 alloc_objects, none\n%s", alloc, doc["source"], text)
	}
	if !strings.Contains(pic["image/svg+xml"].(string), "allocations 14295 alloc_objects") {
		t.Errorf("the picture has no allocation bar for regexp")
	}
}
