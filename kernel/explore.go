package kernel

import (
	"context"
	_ "embed"
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// Explorable views. A command that draws a picture may show it as a view
// that answers clicks: a Jupyter widget of the anywidget front-end model
// (AnyModel and AnyView, the view's code in its _esm), displayed in one
// bundle with the picture as text/html, so that a front end without widget
// support (nbconvert, a static viewer) shows the picture. A click stands
// for command lines (expand toy 8a70): the kernel runs them as a cell's,
// draws the view again with its command, and puts the new picture in the
// widget; the lines show under the view, the clicks command lists them to
// paste into a cell, and the bundle the notebook keeps is replaced by the
// last picture with the clicks it holds. Breadcrumbs step back: what the
// clicks after a crumb changed (a profile's levels) is put back as it was.

//go:embed explore.js
var exploreESM string

//go:embed explore.css
var exploreCSS string

// The anywidget model the views use. A front end's anywidget extension
// matches the module version as a semver range; the view's code uses the
// default-export form of anywidget 0.9 and later.
const (
	anywidgetModule  = "anywidget"
	anywidgetVersion = ">=0.9.0"
)

// Limits of one view, so that its state stays bounded.
const (
	maxClicks = 1000 // clicks kept per view; older ones are dropped from its list
	maxCrumbs = 32   // clicks a view can step back over
)

// InteractiveOption is the option of a command that can show its picture
// as an explorable view; `set interactive=true` turns it on for all.
var InteractiveOption = Option{Name: "interactive", Doc: "show the picture as a view that answers clicks (needs widget support in the front end; see the README)",
	Values: []string{"true", "false"}}

// Interactive reports whether the call shows an explorable view: its
// interactive= option, else the session's setting.
func (c *Call) Interactive() bool {
	if v, ok := c.Opts[InteractiveOption.Name]; ok {
		return v == "true"
	}
	return c.Session.Settings.Interactive
}

// Click is what a front end reports of a click on an explorable view.
type Click struct {
	ID    string // the id of the clicked element (a node's group: PREFIX-HANDLE), or ""
	Title string // the first line of the clicked element's tooltip, or ""
	Part  string // the part of the picture it is in (data-pl-part: a cel's number), or ""
	Shift bool   // shift was held
	Name  string // a control's name, for a click on a control
	Value string // a control's value
}

// Control is a control of a view (DYPER's budget, pause): an input or a
// button whose click stands for command lines, as a picture's click does.
type Control struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Kind  string `json:"kind"` // "button", "text" (a value and a button to send it)
	Value string `json:"value"`
}

// Explore says what an explorable view is: the command line that draws it,
// and what a click stands for.
type Explore struct {
	Command string // draws the view as it is, e.g. "show toy"
	// Step returns what a click on the view drawn by command stands for;
	// nil when it means nothing (a fold mark, the background).
	Step func(cl Click, command string) (*Action, error)
	// Save returns what puts back the state the lines change (a profile's
	// levels), called before each click, for breadcrumbs; nil when the
	// lines change nothing but the view.
	Save func() (restore func() error)
	// Controls are the view's controls; Step serves their clicks too.
	Controls []Control
}

// Action is what a click stands for: command lines, recorded under the
// view, and the command line that draws the view afterwards.
type Action struct {
	Lines  []string
	Redraw string // "": the view's command
	// Do, when not nil, does what Lines do without showing their outputs
	// (the same code as their commands', so that a click on a large
	// profile does not pay for a text view nobody reads); it changes
	// nothing when it fails or ctx ends. Nil: the lines run as a cell's.
	Do func(ctx context.Context) error
}

// Explore shows a picture (svg, with alt as its text) drawn by ex.Command
// as an explorable view when the call is interactive and the front end
// can open widgets; otherwise as the picture it is.
func (c *Call) Explore(svg []byte, alt string, ex *Explore) {
	if !c.Interactive() || c.opener == nil {
		c.Picture(svg, alt)
		return
	}
	e := &explorer{in: c.interp, ex: ex, command: ex.Command, display: c.LiveDisplay()}
	e.w = c.opener.OpenWidget(e.state(string(svg)), e.serve)
	e.pic = []event{{svg: svg, alt: alt}}
	e.display.Show(e.bundle())
}

// ExploreHTML shows HTML (a status line with controls) made by
// ex.Command as an explorable view when the call is interactive and the
// front end can open widgets; otherwise as the bundle of h and alt.
func (c *Call) ExploreHTML(h, alt string, ex *Explore) {
	if !c.Interactive() || c.opener == nil {
		c.Out.Display(jupyter.Bundle{"text/plain": alt, "text/html": h}, nil)
		return
	}
	e := &explorer{in: c.interp, ex: ex, command: ex.Command, display: c.LiveDisplay()}
	e.w = c.opener.OpenWidget(e.state(h), e.serve)
	e.pic = []event{{html: h, alt: alt}}
	e.display.Show(e.bundle())
}

// explorer is an explorable view's kernel side.
type explorer struct {
	in      *Interp
	ex      *Explore
	w       jupyter.Model
	display *LiveDisplay
	command string   // draws the view now
	clicks  []string // the command lines of the clicks, in order
	crumbs  []crumb  // per click still open to step back over
	pic     []event  // what the view shows now, for the fallback
	answers int
	trimmed bool // the first clicks can no longer be stepped back over
}

// crumb is what a step back to before a click needs.
type crumb struct {
	label   string
	command string // the view's command before the click
	clicks  int    // len(clicks) before it
	restore func() error
}

// event is one thing a command showed: a picture, or other HTML.
type event struct {
	svg  []byte
	alt  string
	html string
}

// state is the widget's initial state.
func (e *explorer) state(html string) map[string]any {
	return map[string]any{
		"_model_name": "AnyModel", "_model_module": anywidgetModule, "_model_module_version": anywidgetVersion,
		"_view_name": "AnyView", "_view_module": anywidgetModule, "_view_module_version": anywidgetVersion,
		"_esm": exploreESM, "_css": exploreCSS, "_anywidget_id": "proflens.view",
		"html": html, "command": e.command, "clicks": []string{}, "crumbs": []string{}, "error": "",
		"answered": 0, "controls": controlsOrEmpty(e.ex.Controls), "crumbs_from": "start",
	}
}

func controlsOrEmpty(cs []Control) []Control {
	if cs == nil {
		return []Control{}
	}
	return cs
}

// serve answers a custom message of the view's front end: a click on the
// picture or a control ({"event": "click"}) or on a breadcrumb
// ({"event": "crumb", "index": i}).
func (e *explorer) serve(ctx context.Context, ev jupyter.WidgetEvent) {
	if ev.Method != "custom" {
		return
	}
	var err error
	switch ev.Content["event"] {
	case "click":
		err = e.click(ctx, readClick(ev.Content))
	case "crumb":
		n, _ := ev.Content["index"].(float64)
		err = e.back(ctx, int(n))
	default:
		err = fmt.Errorf("unknown event %v", ev.Content["event"])
	}
	e.answer(ev.Out, err)
}

func readClick(m map[string]any) Click {
	s := func(k string) string { v, _ := m[k].(string); return v }
	shift, _ := m["shift"].(bool)
	return Click{ID: s("id"), Title: s("title"), Part: s("part"), Shift: shift, Name: s("name"), Value: s("value")}
}

// click runs what cl stands for and draws the view again.
func (e *explorer) click(ctx context.Context, cl Click) error {
	a, err := e.ex.Step(cl, e.command)
	if err != nil || a == nil {
		return err
	}
	lines, redraw := a.Lines, a.Redraw
	c := crumb{label: strings.Join(lines, "; "), command: e.command, clicks: len(e.clicks)}
	if e.ex.Save != nil {
		c.restore = e.ex.Save()
	}
	if redraw == "" {
		redraw = e.command
	}
	if c.label == "" {
		c.label = redraw
	}
	if a.Do != nil {
		if err := a.Do(ctx); err != nil {
			return fmt.Errorf("%s: %w", c.label, err)
		}
		lines = nil
	}
	if err := e.run(ctx, lines, redraw); err != nil {
		if c.restore != nil {
			c.restore() // all or nothing, as a command: an interrupted redraw leaves the levels as they were
		}
		return err
	}
	lines = a.Lines
	e.command = redraw
	if len(lines) == 0 {
		lines = []string{redraw}
	}
	e.clicks = append(e.clicks, lines...)
	logClicks(e.in.s, e, lines)
	if over := len(e.clicks) - maxClicks; over > 0 {
		e.clicks = e.clicks[over:]
		e.crumbs, e.trimmed = nil, true // their positions moved: no stepping back past the cut
	}
	e.crumbs = append(e.crumbs, c)
	if len(e.crumbs) > maxCrumbs {
		e.crumbs, e.trimmed = e.crumbs[len(e.crumbs)-maxCrumbs:], true
	}
	return nil
}

// back steps back to before crumb i: the state it saved, its command.
func (e *explorer) back(ctx context.Context, i int) error {
	if i < 0 || i >= len(e.crumbs) {
		return fmt.Errorf("no step %d to go back to", i)
	}
	c := e.crumbs[i]
	if c.restore != nil {
		if err := c.restore(); err != nil {
			return err
		}
	}
	if err := e.run(ctx, nil, c.command); err != nil {
		return err
	}
	unlogClicks(e.in.s, e, len(e.clicks)-c.clicks)
	e.command, e.clicks, e.crumbs = c.command, e.clicks[:c.clicks], e.crumbs[:i]
	return nil
}

// The session's clicks, in the order they were made on all its views:
// what the clicks command lists.
type clickEntry struct {
	view *explorer
	line string
}

var clickLogKey = NewKey[*[]clickEntry]("clicks")

// maxLogged is the most clicks the session's list keeps.
const maxLogged = 10000

func logClicks(s *Session, e *explorer, lines []string) {
	log := clickLogKey.Get(s)
	if log == nil {
		log = &[]clickEntry{}
		clickLogKey.Set(s, log)
	}
	for _, l := range lines {
		*log = append(*log, clickEntry{e, l})
	}
	if over := len(*log) - maxLogged; over > 0 {
		*log = append([]clickEntry(nil), (*log)[over:]...)
	}
}

// unlogClicks drops the last n clicks of view e from the session's list.
func unlogClicks(s *Session, e *explorer, n int) {
	log := clickLogKey.Get(s)
	if log == nil {
		return
	}
	for i := len(*log) - 1; i >= 0 && n > 0; i-- {
		if (*log)[i].view == e {
			*log = append((*log)[:i], (*log)[i+1:]...)
			n--
		}
	}
}

// Clicks returns the command lines of the clicks made on the session's
// views, in order, without those stepped back over.
func Clicks(s *Session) []string {
	log := clickLogKey.Get(s)
	if log == nil {
		return nil
	}
	out := make([]string, len(*log))
	for i, c := range *log {
		out[i] = c.line
	}
	return out
}

// run runs lines, then redraw, as cells of their own, and keeps what
// redraw shows; the first error stops it.
func (e *explorer) run(ctx context.Context, lines []string, redraw string) error {
	st := &e.in.s.Settings
	was := st.Pictures
	st.Pictures = PicturesBoth
	defer func() { st.Pictures = was }()
	for _, l := range append(lines, redraw) {
		rec := &Recorder{}
		if _, err := e.in.Run(ctx, l, rec); err != nil {
			return fmt.Errorf("%s: %s", l, err.Value)
		}
		if l == redraw {
			e.pic = shown(rec)
		}
	}
	return nil
}

// shown is what a recorded cell showed: pictures and HTML, in order.
func shown(rec *Recorder) []event {
	var out []event
	for _, ev := range rec.Events {
		if ev.Kind != "display" && ev.Kind != "result" {
			continue
		}
		alt, _ := ev.Data["text/plain"].(string)
		if svg, ok := ev.Data["image/svg+xml"].(string); ok {
			out = append(out, event{svg: []byte(svg), alt: alt})
			continue
		}
		h, ok := ev.Data["text/html"].(string)
		if !ok {
			h = "<pre>" + html.EscapeString(alt) + "</pre>"
		}
		out = append(out, event{html: h, alt: alt})
	}
	return out
}

// answer puts the view's new state in the widget, and the last picture
// with the clicks it holds in the bundle the notebook keeps.
func (e *explorer) answer(out jupyter.Output, err error) {
	e.answers++
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	var live strings.Builder
	for _, p := range e.pic {
		if p.svg != nil {
			live.Write(p.svg)
		} else {
			live.WriteString(p.html)
		}
	}
	from := "start"
	if e.trimmed {
		from = "earlier"
	}
	e.w.Set(map[string]any{"html": live.String(), "command": e.command, "clicks": append([]string{}, e.clicks...),
		"crumbs": e.crumbLabels(), "crumbs_from": from, "error": msg, "answered": e.answers})
	e.display.out = out
	e.display.Show(e.bundle())
}

func (e *explorer) crumbLabels() []string {
	out := make([]string, len(e.crumbs))
	for i, c := range e.crumbs {
		out[i] = c.label
	}
	return out
}

// bundle is the view's display: the widget, and for front ends without
// widgets the pictures, with the clicks the output holds.
func (e *explorer) bundle() jupyter.Bundle {
	var text, h strings.Builder
	for _, p := range e.pic {
		text.WriteString(p.alt)
		if p.svg != nil {
			h.WriteString(PictureHTML(p.svg, p.alt))
		} else {
			h.WriteString(p.html)
		}
	}
	if n := len(e.clicks); n > 0 {
		note := fmt.Sprintf("this output holds %s (a re-run shows the view before them; to keep them, paste them into a cell):\n%s",
			CountOf(n, "click"), strings.Join(e.clicks, "\n"))
		text.WriteString("\n" + note + "\n")
		h.WriteString(`<pre class="proflens-clicks">` + html.EscapeString(note) + "</pre>")
	}
	return jupyter.Bundle{jupyter.ViewMIME: e.w.View(), "text/plain": text.String(), "text/html": h.String()}
}

// CommandLine writes the call back as a command line: its name, profiles,
// arguments and options (in name order), quoted where needed, without the
// options named in drop.
func (c *Call) CommandLine(drop ...string) string {
	var words []string
	for _, w := range append(append([]string{c.Cmd.Name}, c.Named...), c.Args...) {
		words = append(words, quoteWord(w))
	}
	keys := make([]string, 0, len(c.Opts))
	for k := range c.Opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(drop, k) {
			words = append(words, k+"="+quoteWord(c.Opts[k]))
		}
	}
	return strings.Join(words, " ")
}

// quoteWord writes w so that the parser reads it back as w: quoted when it
// holds spaces, quotes, # or \, and $ doubled, which parameters would
// otherwise expand.
func quoteWord(w string) string {
	return quoteIfNeeded(strings.ReplaceAll(w, "$", "$$"))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
