package commands

import (
	"fmt"

	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/plotting"
)

var entitiesCommand = &kernel.Command{
	Name:    "entities",
	Summary: "Draw the architectural view of a profile under a mapping (AVID): entities and the calls between them.",
	Doc: "One box per entity of the mapping (see `mapping`), its area proportional to the entity's self value, " +
		"labelled with its share; arcs from caller entity to callee entity labelled with the number of calls; " +
		"calls inside one entity are no arcs. Where the profile records memory events (JFR allocation events, " +
		"a Chrome trace's N/D object events, a series of heap profiles as deltas), two bars under each entity " +
		"show the objects of its classes allocated (dark) and freed (red); where it only has allocation values " +
		"(one heap profile), one bar shows its allocations. Calls are exact for an evented recording (Chrome trace spans, " +
		"speedscope evented profiles) and recovered by diffing consecutive stacks per thread for samples in " +
		"time order; the answer says which. The picture comes with a table of the entities and one of the arcs; " +
		"its JSON is `{\"source\", \"entities\": [{\"name\", \"self\", \"total\", \"calls_in\"}], \"arcs\": " +
		"[{\"from\", \"to\", \"calls\"}]}` (with the entities' table), values as raw integers in the profile's unit. Without `mapping=`, " +
		"each package (top-level name) is an entity.",
	Options: []kernel.Option{mappingOpt, kernel.InteractiveOption},
	Examples: []string{"load demo:shop as shop", "mapping m <<\nUI class ui.*\nCore class core.*\nDB class db.*\nJDK class java.*\nend",
		"entities mapping=m", "entities shop mapping=m hide=^db"},
	Profiles: 1,
	Tree:     true,
	Run:      runEntities,
}

func runEntities(c *kernel.Call) error {
	l, t := c.Profile(), c.Tree()
	em, by, err := entityMap(c, t.Profile)
	if err != nil {
		return err
	}
	e := avid.NewEntities(t, em, c.Value())
	pic, err := plotting.DrawEntities(e, l.Name)
	if err != nil {
		return fmt.Errorf("entities %s: %w", l.Name, err)
	}
	ents, arcs, doc := entityTables(e)
	note := mappingNotes(c.Subject(), e.Source, em) + objectsNote(e.Objects)
	l.SetPicture(pic.SVG, nil)
	c.Explore(pic.SVG, pic.Text, entitiesExplore(c))
	ents.Title = fmt.Sprintf("%s: entities by %s", c.Subject(), by)
	c.Out.Display(jupyter.Bundle{"text/html": ents.HTML(), "text/plain": ents.Plain(), "application/json": doc}, nil)
	arcs.Title, arcs.Note = "calls between entities", note
	c.Out.Display(jupyter.Bundle{"text/html": arcs.HTML(), "text/plain": arcs.Plain()}, nil)
	return nil
}
