package commands

import (
	"fmt"

	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/plotting"
)

var celsCommand = &kernel.Command{
	Name:    "cels",
	Summary: "Animate a recording as AVID's cels: the calls between entities step by step, with the call stack.",
	Doc: "Cuts the recording into cels of `step` entries (`step=100`) or of a span of time (`step=10ms`); by " +
		"default into about 12 cels. Each cel is the entity graph of `entities` with, on every arc, the calls " +
		"made up to the cel's end and, in colour, \"(+N)\" for those made in the cel, and the call stack at the " +
		"cel's end as a grey hyperarc through its entities; each entity's share and its bars of objects allocated " +
		"and freed are those up to the cel's end. Inline, the cels are small multiples that a script " +
		"turns into a player (step back, play, step forward, a slider) where the notebook runs scripts (a " +
		"trusted notebook); elsewhere they stay small multiples (`set pictures=` chooses how they are sent); " +
		"`export cels FILE.html` writes the player as a page that works offline. With `interactive=true` the cels are small " +
		"multiples in a view where a click on an arc of a cel lists the calls behind it made in that cel (`calls FROM TO cel=K`). Cels need time order: an " +
		"evented recording, or samples with times (calls then recovered by stack diffs). The JSON is " +
		"`{\"cels\": [{\"start\", \"end\", \"stack\": [entity…], \"arcs\": [{\"from\", \"to\", \"step\", \"total\"}]}]}`.",
	Options: []kernel.Option{mappingOpt,
		{Name: "step", Doc: "entries per cel (a number) or time per cel (a duration); default: about 12 cels"},
		{Name: "max", Doc: "most cels", Default: "100", Kind: kernel.KindNumber}, kernel.InteractiveOption},
	Examples: []string{"load demo:shop as shop", "mapping m <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend",
		"cels mapping=m step=2", "cels shop mapping=m step=8us", "export cels shop-cels.html"},
	Profiles: 1,
	Tree:     true,
	Run:      runCels,
}

// defaultCels is about how many cels cels cuts without step=.
const defaultCels = 12

func runCels(c *kernel.Call) error {
	limit, err := c.PositiveInt("max")
	if err != nil {
		return err
	}
	l, t := c.Profile(), c.Tree()
	step, err := celStep(c, t)
	if err != nil {
		return err
	}
	em, by, err := entityMap(c, t.Profile)
	if err != nil {
		return err
	}
	cs, err := avid.NewCels(t, em, step, c.Value(), limit)
	if err != nil {
		return fmt.Errorf("cels %s: %w", c.Subject(), err)
	}
	e := avid.NewEntities(t, em, c.Value())
	pic, err := plotting.DrawCels(cs, e, l.Name)
	if err != nil {
		return fmt.Errorf("cels %s: %w", l.Name, err)
	}
	note := mappingNotes(c.Subject(), cs.Source, em) + objectsNote(e.Objects)
	l.SetPicture(pic.Sheet, nil)
	celsKey.Set(l, plotting.CelsPage(pic, l.Name+" · cels by "+by))
	if c.Interactive() {
		c.Explore(pic.Sheet, pic.Text, celsExplore(c))
		c.Print(note + "\n")
		return nil
	}
	b := jupyter.Bundle{"text/plain": pic.Text, "application/json": celsDoc(cs)}
	mode := c.Session.Settings.Pictures
	if mode != kernel.PicturesSVG { // the cels as pictures, inlined where trusted (PictureHTML)
		embed := func(svg []byte, k int) string {
			return kernel.PictureHTML(svg, fmt.Sprintf("cel %d of %d", k+1, len(pic.Cels)))
		}
		b["text/html"] = string(plotting.CelsPlayer(pic.Cels, embed))
	}
	if mode == kernel.PicturesSVG || mode == kernel.PicturesBoth {
		b["image/svg+xml"] = string(pic.Sheet)
	}
	c.Out.Display(b, nil)
	c.Print(note + "\n")
	return nil
}
