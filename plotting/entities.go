package plotting

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
)

// An entity graph is AVID's picture (seed 001): one box per entity, its
// area proportional to the entity's self value, on a circle in the
// mapping's order; arcs from caller entity to callee entity labelled with
// their calls; bars under an entity's name for the objects of its classes
// allocated (dark) and freed (red), or for its allocation value; and, in a
// cel, the grey hyperarc of the call stack, with each entity's share and
// bars up to the cel. The same entities sit in the
// same places in the entities picture and in every cel.

// Sizes of the entities picture; a cel is drawn at celScale of it.
const (
	graphWidth  = 640.0
	graphHeight = 520.0
	maxBox      = 72.0 // side of the box of the entity with the most self
	minBox      = 6.0
	celScale    = 0.8
	labelRoom   = 34.0 // under the lowest box: its name, share and allocation bar
)

// EntityPicture is a drawn entities view.
type EntityPicture struct {
	SVG  []byte
	Text string // the entities and arcs as text
}

// DrawEntities draws e. profile names the profile in the title; the same
// input gives the same bytes.
func DrawEntities(e *avid.Entities, profile string) (*EntityPicture, error) {
	g := newGraph(e, 1)
	g.title = entitiesTitle(e, profile)
	for _, a := range e.Arcs {
		g.arcs = append(g.arcs, g.arc(a, fmt.Sprint(a.Calls), e.Arcs[0].Calls, false))
	}
	var b bytes.Buffer
	if err := g.paint(&b); err != nil {
		return nil, err
	}
	return &EntityPicture{SVG: b.Bytes(), Text: entitiesText(e, g.title)}, nil
}

func entitiesTitle(e *avid.Entities, profile string) string {
	vt := e.ValueType
	s := "entities"
	if profile != "" {
		s = profile + " · entities"
	}
	s += fmt.Sprintf(" · %s · %s · calls from %s", vt.Type, Amount(e.Grand, vt), sourceName(e.Source))
	return s
}

// sourceName says where calls come from, for titles.
func sourceName(s analysis.CountSource) string {
	if s == "" {
		return "nowhere (no events, no time order)"
	}
	return string(s)
}

// entitiesText lists the drawn entities and arcs: the text/plain form.
func entitiesText(e *avid.Entities, title string) string {
	var b strings.Builder
	b.WriteString(title + "\n")
	vt := e.ValueType
	for _, i := range shownEntities(e) {
		fmt.Fprintf(&b, "%s: self %s (%s), total %s, %d calls in\n", e.Map.Names[i],
			Amount(e.Self[i], vt), analysis.Percent(e.Self[i], e.Grand), Amount(e.Total[i], vt), e.CallsIn[i])
	}
	for _, a := range e.Arcs {
		fmt.Fprintf(&b, "%s → %s: %d calls\n", e.Map.Names[a.From], e.Map.Names[a.To], a.Calls)
	}
	return b.String()
}

// graph is one entity graph ready to paint.
type graph struct {
	w, h  float64
	scale float64
	title string
	boxes []entityBox // by entity index; a box of side 0 is not drawn
	arcs  []graphArc
	stack []int32 // the entities of the call stack's hyperarc, outermost first
	// objMost is the largest count of objects allocated or freed by an
	// entity in the whole recording: the full width of the bars.
	objMost int64
}

type entityBox struct {
	name       string
	share      string  // of the self value
	x, y, side float64 // centre and side
	fill, tip  string
	alloc      float64 // the allocation bar's share of the widest, -1 for none
	free       float64 // the deallocation bar's share of the widest, -1 for none
	labelY     float64 // the middle of its label (place)
}

// label is what a box shows: the entity's name and share.
func (b *entityBox) label() string { return b.name + " " + b.share }

type graphArc struct {
	from, to   int32
	label, tip string
	width      float64
	hot        bool // has calls in the cel drawn

	x0, y0, cx, cy, x1, y1 float64 // the curve: ends and control point (place)
	lx, ly                 float64 // the label's centre
	shown                  bool    // the label has a free place
}

// shownEntities returns the entities drawn: all of the mapping's, and
// (other) when it has a frame with a value or a call.
func shownEntities(e *avid.Entities) []int32 {
	var out []int32
	other := e.Map.Other()
	for i := range e.Map.Names {
		id := int32(i)
		if id != other || e.Total[id] != 0 || e.CallsIn[id] != 0 || hasArcFrom(e, id) {
			out = append(out, id)
		}
	}
	return out
}

func hasArcFrom(e *avid.Entities, id int32) bool {
	for _, a := range e.Arcs {
		if a.From == id {
			return true
		}
	}
	return false
}

// newGraph places e's entities on a circle at scale s of the full size.
func newGraph(e *avid.Entities, s float64) *graph {
	g := &graph{w: graphWidth * s, h: graphHeight * s, scale: s, boxes: make([]entityBox, len(e.Map.Names))}
	shown := shownEntities(e)
	pal := &palette{place: spread(append([]string(nil), e.Map.Names...), places, topPlace)}
	var most, allocMost int64
	for _, i := range shown {
		most = max(most, e.Self[i])
		if e.Alloc != nil {
			allocMost = max(allocMost, e.Alloc[i])
		}
		if o := e.Objects; o != nil {
			g.objMost = max(g.objMost, o.Alloc[i], o.Free[i])
		}
	}
	// The title and the labels under the boxes keep their size at every
	// scale: the circle fits between them.
	avail := g.h - header - labelRoom
	cx, cy := g.w/2, header+avail/2
	r := min(g.w, avail)/2 - maxBox*s/2 - 8
	vt := e.ValueType
	for k, i := range shown {
		angle := -math.Pi/2 + 2*math.Pi*float64(k)/float64(len(shown))
		b := entityBox{name: e.Map.Names[i], share: analysis.Percent(e.Self[i], e.Grand), x: cx, y: cy,
			fill: pal.colour([]string{e.Map.Names[i]}), alloc: -1, free: -1,
			side: max(maxBox*math.Sqrt(frac(e.Self[i], most)), minBox) * s}
		if len(shown) > 1 {
			b.x, b.y = cx+r*math.Cos(angle), cy+r*math.Sin(angle)
		}
		b.tip = fmt.Sprintf("%s\nself %s (%s)\ntotal %s (%s)\n%d calls in from other entities", b.name,
			Amount(e.Self[i], vt), analysis.Percent(e.Self[i], e.Grand), Amount(e.Total[i], vt),
			analysis.Percent(e.Total[i], e.Grand), e.CallsIn[i])
		switch o := e.Objects; {
		case o != nil:
			b.alloc, b.free = frac(o.Alloc[i], g.objMost), frac(o.Free[i], g.objMost)
			b.tip += objectsTip(o, i)
		case e.Alloc != nil:
			b.alloc = frac(e.Alloc[i], allocMost)
			b.tip += fmt.Sprintf("\nallocations %s", Amount(e.Alloc[i], e.AllocType))
		}
		g.boxes[i] = b
	}
	return g
}

// arc makes the arc of a with a label; its width grows with calls up to
// most.
func (g *graph) arc(a avid.Arc, label string, most int64, hot bool) graphArc {
	from, to := g.boxes[a.From].name, g.boxes[a.To].name
	return graphArc{from: a.From, to: a.To, label: label, hot: hot,
		width: (1 + 3*frac(a.Calls, most)) * g.scale,
		tip:   fmt.Sprintf("%s → %s\n%s calls", from, to, label)}
}

// paint writes the graph as SVG: the stack's hyperarc, the arcs, then the
// boxes on top.
func (g *graph) paint(w io.Writer) error {
	g.place()
	s := newSVG(w, g.w, g.h)
	s.text(margin, 15, 0, "start", g.title)
	g.paintStack(s)
	for _, a := range g.arcs {
		g.paintArc(s, a)
	}
	for _, b := range g.boxes {
		if b.side > 0 {
			g.paintBox(s, b)
		}
	}
	return s.close()
}

// objectsTip is the line of a box's tooltip for its objects.
func objectsTip(o *avid.Objects, i int32) string {
	return fmt.Sprintf("\n%d objects allocated, %d freed (memory events: %s)", o.Alloc[i], o.Free[i], o.Source)
}
