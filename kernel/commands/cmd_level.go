package commands

import (
	"fmt"
	"strconv"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
)

var levelCommand = &kernel.Command{
	Name:    "level",
	Summary: "Set the granularity level: how many name elements each frame keeps (ProfVis).",
	Doc: "Sets the level of every call-tree node whose full name matches `where` (every node without it), " +
		"then shows the compacted tree. Level 1 keeps the top unit (package, module, file); a level beyond " +
		"a name's length keeps the full name. Any assignment is allowed; when the result breaks ProfVis's " +
		"R1 (a child coarser than its parent) or R2 (a node absorbing a name two levels finer), a note says " +
		"where. `level using=MAPPING` compacts every frame to its entity under a mapping (see `mapping`), so " +
		"that views, pictures and phase vectors are by entity; a plain `level N` goes back to frame names.",
	Args: []kernel.Arg{{Name: "N", Doc: "level, 1 or more (not with using=)", Kind: kernel.KindNumber, Optional: true}},
	Options: []kernel.Option{{Name: "where", Doc: "regular expression over full frame names", Kind: kernel.KindRegexp},
		{Name: "using", Doc: "a mapping (see mapping): every frame compacts to its entity", Kind: kernel.KindFile}, stepMaxOpt},
	Examples: []string{"load demo:profvis-toy as toy", "level 99", "level toy 1 where=^lib2\\.",
		"mapping lungs <<\nLungs class lib2.Lung\nMuscles class lib2.*\nend", "level using=lungs", "level 2"},
	Profiles: 1,
	Run:      runLevel,
}

func runLevel(c *kernel.Call) error {
	l := c.Profile()
	if c.Has("using") {
		return levelUsing(c)
	}
	if l.Mapping() != nil {
		l.UseMapping(nil)
	}
	n, err := strconv.Atoi(c.Arg(0))
	if err != nil || n < 1 {
		return c.Usagef("level %q: write a whole number of name elements, 1 or more (99 for full names)", c.Arg(0))
	}
	re, err := c.Regexp("where")
	if err != nil {
		return err
	}
	ns, count, err := l.Granularity().SetLevel(l.Tree(), n, re)
	if err != nil {
		return c.Usagef("%v", err)
	}
	l.SetState(ns, nil)
	return showNew(c, l, func(v *compaction.View) string {
		note := fmt.Sprintf("level %d on %d of %d call-tree nodes", n, count, l.Tree().Len())
		if x := v.Check(); x != nil {
			note += fmt.Sprintf("\nnote: this view breaks %s: %s", x.Rule, x.Describe(v))
		}
		return note
	})
}
