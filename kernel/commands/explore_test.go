package commands

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// fakeModel is a widget as the protocol layer would hold it: the state the
// kernel set, and the handler that serves its front end's messages.
type fakeModel struct {
	id    string
	state map[string]any
	h     jupyter.WidgetHandler
	sent  []map[string]any
}

func (m *fakeModel) ID() string                  { return m.id }
func (m *fakeModel) View() map[string]any        { return map[string]any{"model_id": m.id} }
func (m *fakeModel) Get(k string) any            { return m.state[k] }
func (m *fakeModel) Set(c map[string]any)        { maps.Copy(m.state, c) }
func (m *fakeModel) Send(content map[string]any) { m.sent = append(m.sent, content) }

// widgetOut is a cell's output whose front end shows widgets.
type widgetOut struct {
	*kernel.Recorder
	models []*fakeModel
}

func (o *widgetOut) OpenWidget(state map[string]any, h jupyter.WidgetHandler) jupyter.Model {
	m := &fakeModel{id: fmt.Sprintf("w%d", len(o.models)+1), state: maps.Clone(state), h: h}
	o.models = append(o.models, m)
	return m
}

// explored runs code in in with a widget-showing output and returns the
// one view it opened.
func explored(t testing.TB, in *kernel.Interp, code string) (*fakeModel, *widgetOut) {
	t.Helper()
	out := &widgetOut{Recorder: &kernel.Recorder{}}
	if err := in.Execute(t.Context(), code, out); err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	if len(out.models) != 1 {
		t.Fatalf("%s opened %d widgets, want 1", code, len(out.models))
	}
	return out.models[0], out
}

// send delivers a front end's custom message to m and returns the outputs
// the answer made (the display update).
func send(m *fakeModel, content map[string]any) *kernel.Recorder {
	rec := &kernel.Recorder{}
	m.h(context.Background(), jupyter.WidgetEvent{Widget: m, Method: "custom", Content: content, Out: rec})
	return rec
}

func clicksOf(m *fakeModel) []string { return m.state["clicks"].([]string) }

func TestExploreShow(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	in := kernel.NewInterp(s)
	if _, err := kernel.RunCell(t.Context(), s, "load demo:profvis-toy as toy\nlevel 1"); err != nil {
		t.Fatal(err)
	}
	m, out := explored(t, in, "show toy interactive=true")
	disp := out.Bundles()[0]
	if disp[jupyter.ViewMIME] == nil || !strings.Contains(disp["text/html"].(string), "data:image/svg+xml;base64,") {
		t.Fatalf("the view's bundle lacks the widget or the picture: %v", bundleKeys(disp))
	}
	if m.state["_model_name"] != "AnyModel" || !strings.Contains(m.state["_esm"].(string), "export default") ||
		!strings.HasPrefix(m.state["html"].(string), "<svg") || m.state["command"] != "show toy" {
		t.Fatalf("initial state: model %v, command %v", m.state["_model_name"], m.state["command"])
	}
	l := s.Get("toy")
	before := viewOf(t, l)
	root := before.Handle(before.Roots[0])
	levels := slicesClone(l.Granularity().Levels())

	rec := send(m, map[string]any{"event": "click", "id": "r-" + root})
	if got, want := clicksOf(m), []string{"expand toy " + root}; !reflect.DeepEqual(got, want) || m.state["error"] != "" {
		t.Fatalf("after a click: clicks %q, error %q; want %q", got, m.state["error"], want)
	}
	if after := viewOf(t, l); len(after.Nodes) <= len(before.Nodes) {
		t.Errorf("expand by click: %d compacted nodes, before %d", len(after.Nodes), len(before.Nodes))
	}
	if !strings.Contains(m.state["html"].(string), "pl-new") {
		t.Error("the redrawn picture outlines no node as new")
	}
	upd := rec.Events[len(rec.Events)-1]
	if upd.Kind != "update" || !strings.Contains(upd.Data["text/plain"].(string), "this output holds 1 click") ||
		!strings.Contains(upd.Data["text/html"].(string), "expand toy "+root) {
		t.Errorf("the kept bundle after a click: %v %v", upd.Kind, upd.Data["text/plain"])
	}

	expanded := viewOf(t, l)
	child := expanded.Handle(expanded.Roots[0])
	send(m, map[string]any{"event": "click", "id": "r-" + child, "shift": true})
	if got := clicksOf(m); len(got) != 2 || got[1] != "compact toy "+child {
		t.Errorf("shift-click: clicks %q (error %q), want a compact second", got, m.state["error"])
	}
	send(m, map[string]any{"event": "click", "id": "r-ffffffffffff"})
	if m.state["error"] == "" || len(clicksOf(m)) != 2 {
		t.Errorf("click on no node: error %q, clicks %q; want an error and the clicks as they were", m.state["error"], clicksOf(m))
	}
	send(m, map[string]any{"event": "click", "id": "r-more-3"})
	if len(clicksOf(m)) != 2 {
		t.Errorf("a click on a fold mark made a click: %q", clicksOf(m))
	}
	send(m, map[string]any{"event": "crumb", "index": 0.0})
	if got := clicksOf(m); len(got) != 0 || m.state["error"] != "" {
		t.Errorf("back to the start: clicks %q, error %q", got, m.state["error"])
	}
	if !reflect.DeepEqual(l.Granularity().Levels(), levels) {
		t.Error("back to the start did not put the levels back")
	}
	if rec, _ := kernel.RunCell(t.Context(), s, "clicks"); !strings.Contains(rec.Bundles()[0]["text/plain"].(string), "no clicks") {
		t.Errorf("clicks after stepping back: %v", rec.Bundles()[0]["text/plain"])
	}
}

func TestExploreFlame(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	in := kernel.NewInterp(s)
	if _, err := kernel.RunCell(t.Context(), s, "load demo:profvis-toy as toy\nlevel 2"); err != nil {
		t.Fatal(err)
	}
	m, _ := explored(t, in, "flame toy interactive=true order=weight")
	v := viewOf(t, s.Get("toy"))
	h := v.Handle(v.Roots[0])
	send(m, map[string]any{"event": "click", "id": "f-" + h})
	want := "flame toy order=weight root=" + h
	if m.state["command"] != want || !reflect.DeepEqual(clicksOf(m), []string{want}) {
		t.Fatalf("zoom: command %v, clicks %q; want %s", m.state["command"], clicksOf(m), want)
	}
	send(m, map[string]any{"event": "click", "id": "f-" + h})
	if m.state["command"] != "flame toy order=weight" {
		t.Errorf("a click on the root bar: command %v, want the whole graph", m.state["command"])
	}
	rec, err := kernel.RunCell(t.Context(), s, "clicks")
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Bundles()[0]["text/plain"].(string); !strings.Contains(got, want+"\nflame toy order=weight\n") {
		t.Errorf("clicks lists\n%s", got)
	}
}

// TestExploreNeedsWidgets: without a front end that shows widgets, or
// without interactive, show draws its picture as always.
func TestExploreNeedsWidgets(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	rec, err := kernel.RunCell(t.Context(), s, "load demo:profvis-toy as toy\nset interactive=true\nshow")
	if err != nil {
		t.Fatal(err)
	}
	b := rec.Bundles()
	if _, ok := b[len(b)-1][jupyter.ViewMIME]; ok {
		t.Error("a view was offered to an output that cannot open widgets")
	}
	_, out := explored(t, kernel.NewInterp(s), "show interactive=true")
	out2 := &widgetOut{Recorder: &kernel.Recorder{}}
	if err := kernel.NewInterp(s).Execute(t.Context(), "show interactive=false", out2); err != nil || len(out2.models) != 0 {
		t.Errorf("show interactive=false opened %d widgets (%v)", len(out2.models), err)
	}
	_ = out
}

func bundleKeys(b jupyter.Bundle) []string {
	var out []string
	for k := range b {
		out = append(out, k)
	}
	return out
}

func slicesClone(s []int32) []int32 { return append([]int32(nil), s...) }

func TestExplorePhases(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := kernel.RunCell(t.Context(), s, "load demo:phasedemo as run"); err != nil {
		t.Fatal(err)
	}
	out := &widgetOut{Recorder: &kernel.Recorder{}}
	if err := kernel.NewInterp(s).Execute(t.Context(), "phases run interactive=true", out); err != nil || len(out.models) != 1 {
		t.Fatalf("phases interactive=true opened %d widgets (%v)", len(out.models), err)
	}
	m := out.models[0]
	if h := m.state["html"].(string); !strings.Contains(h, `data-pl-id="iv-3"`) || !strings.Contains(h, `data-pl-id="ph-1"`) {
		t.Fatal("the strip has no clickable interval 3 or phase 1")
	}
	send(m, map[string]any{"event": "click", "id": "iv-3"})
	h := m.state["html"].(string)
	if m.state["command"] != "interval run 3" || m.state["error"] != "" || strings.Count(h, "<table>") != 2 || !strings.Contains(h, "interval 3 of run") {
		t.Errorf("interval click: command %v, error %v, %d tables", m.state["command"], m.state["error"], strings.Count(h, "<table>"))
	}
	send(m, map[string]any{"event": "click", "id": "ph-1"})
	if m.state["command"] != "interval run phase=1" || !strings.Contains(m.state["html"].(string), "<caption>the intervals of phase 1</caption>") {
		t.Errorf("legend click: command %v, error %v", m.state["command"], m.state["error"])
	}
	if got := clicksOf(m); !reflect.DeepEqual(got, []string{"interval run 3", "interval run phase=1"}) {
		t.Errorf("clicks %q", got)
	}
}

func TestExploreEntities(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := kernel.RunCell(t.Context(), s, "load demo:shop as shop\nmapping m <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend"); err != nil {
		t.Fatal(err)
	}
	m, _ := explored(t, kernel.NewInterp(s), "entities shop mapping=m interactive=true")
	send(m, map[string]any{"event": "click", "title": "UI → Core"})
	h := m.state["html"].(string)
	if m.state["error"] != "" || !reflect.DeepEqual(clicksOf(m), []string{"calls shop UI Core mapping=m"}) || !strings.Contains(h, "the calls from UI to Core") {
		t.Fatalf("arc click: error %v, clicks %q", m.state["error"], clicksOf(m))
	}
	rec, err := kernel.RunCell(t.Context(), s, "calls shop UI Core mapping=m n=0")
	if err != nil {
		t.Fatal(err)
	}
	tab := rec.Bundles()[0]["application/json"].([]map[string]any)
	var sum int64
	for _, r := range tab {
		sum += r["calls"].(int64)
	}
	arcs, err := kernel.RunCell(t.Context(), s, "entities shop mapping=m")
	if err != nil {
		t.Fatal(err)
	}
	arcTable := arcs.Bundles()[len(arcs.Bundles())-1]["text/plain"].(string)
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^UI +Core +%d$`, sum)).MatchString(arcTable) || len(tab) == 0 {
		t.Errorf("the %d function pairs behind UI → Core add up to %d calls, not the arc's:\n%s", len(tab), sum, arcTable)
	}
}

// TestExploreLiveControls: a background attachment's line comes with
// DYPER's controls, each a click that stands for its command; detach ends
// the collection as the command does.
func TestExploreLiveControls(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	defer s.Close()
	m, _ := explored(t, kernel.NewInterp(s), "attach demo:phases as bg background=true kinds=cpu for=30s interactive=true")
	var names []string
	for _, c := range m.state["controls"].([]kernel.Control) {
		names = append(names, c.Name)
	}
	if want := []string{"budget", "kinds", "pause", "resume", "detach"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("controls %q, want %q", names, want)
	}
	send(m, map[string]any{"event": "click", "name": "kinds", "value": "goroutine,cpu"})
	if h := m.state["html"].(string); m.state["error"] != "" || !strings.Contains(h, "bg collects goroutine,cpu from now on") {
		t.Errorf("kinds control: error %v, clicks %q, view %q", m.state["error"], clicksOf(m), h)
	}
	send(m, map[string]any{"event": "click", "name": "detach"})
	if m.state["error"] != "" || !reflect.DeepEqual(clicksOf(m), []string{"attach bg kinds=goroutine,cpu", "detach bg"}) || !strings.Contains(m.state["html"].(string), "per kind") {
		t.Errorf("detach control: error %v, clicks %q", m.state["error"], clicksOf(m))
	}
	if rec, err := kernel.RunCell(t.Context(), s, "detach bg"); err == nil {
		t.Errorf("bg is still attached after the detach control: %v", rec.Bundles())
	}
}

// TestExploreCels: a click on an arc of a cel stands for the calls behind
// it made in that cel; for every cel and arc, under a cut by entries and
// one by time, those calls add up to the "(+N)" cels draws on the arc.
func TestExploreCels(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	if _, err := kernel.RunCell(t.Context(), s, "load demo:shop as shop\nmapping m <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend"); err != nil {
		t.Fatal(err)
	}
	m, _ := explored(t, kernel.NewInterp(s), "cels shop mapping=m step=8 interactive=true")
	if h := m.state["html"].(string); !strings.Contains(h, `data-pl-part="2"`) {
		t.Fatalf("the view's cels do not say which cel they are:\n%.300s", h)
	}
	send(m, map[string]any{"event": "click", "title": "UI → Core"}) // no cel: nothing to list
	send(m, map[string]any{"event": "click", "title": "UI → Core", "part": "2"})
	want := []string{"calls shop UI Core cel=2 mapping=m step=8"}
	if h := m.state["html"].(string); m.state["error"] != "" || !reflect.DeepEqual(clicksOf(m), want) ||
		!strings.Contains(h, "the calls from UI to Core in cel 2 of ") || !strings.Contains(h, `data-pl-part="2"`) {
		t.Fatalf("arc click: error %v, clicks %q, want %q", m.state["error"], clicksOf(m), want)
	}
	for _, step := range []string{"8", "8us"} {
		rec, err := kernel.RunCell(t.Context(), s, "cels shop mapping=m step="+step)
		if err != nil {
			t.Fatal(err)
		}
		doc := rec.Bundles()[0]["application/json"].(map[string]any)
		checked, made := 0, 0
		for k, cel := range doc["cels"].([]map[string]any) {
			for _, a := range cel["arcs"].([]map[string]any) {
				line := fmt.Sprintf("calls shop %s %s mapping=m step=%s cel=%d n=0", a["from"], a["to"], step, k+1)
				if got := callsSum(t, s, line); got != a["step"].(int64) {
					t.Errorf("%s: %d calls, the cel's arc says +%d", line, got, a["step"])
				}
				checked++
				if a["step"].(int64) > 0 {
					made++
				}
			}
		}
		if checked < 5 || made < 3 {
			t.Errorf("step=%s: only %d arcs of cels checked, %d with calls in their cel", step, checked, made)
		}
	}
	if _, err := kernel.RunCell(t.Context(), s, "calls shop UI Core mapping=m step=8 cel=1000"); err == nil || !strings.Contains(err.Error(), "cels") {
		t.Errorf("a cel past the last: %v", err)
	}
}

// callsSum runs a calls line and adds up its calls.
func callsSum(t *testing.T, s *kernel.Session, line string) int64 {
	t.Helper()
	rec, err := kernel.RunCell(t.Context(), s, line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	var sum int64
	for _, r := range rec.Bundles()[0]["application/json"].([]map[string]any) {
		sum += r["calls"].(int64)
	}
	return sum
}
