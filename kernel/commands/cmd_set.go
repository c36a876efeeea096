package commands

import (
	"fmt"
	"maps"
	"slices"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
)

var setCommand = &kernel.Command{
	Name:    "set",
	Summary: "Set a parameter ($NAME in any command) or a session setting; alone, list them.",
	Doc: "`set NAME VALUE` defines a parameter: `$NAME` or `${NAME}` in any later command stands for VALUE " +
		"(`$$` is a `$`; a `$` that no name follows, as at the end of a regular expression, stays). " +
		"An environment variable of the same name is the default, so " +
		"`PROFILE=new.pb.gz jupyter nbconvert --execute report.ipynb` re-runs a write-up that loads `$PROFILE` " +
		"on another profile. A name that is neither set nor in the environment is an error naming it.\n\n" +
		"`set pictures=html|svg|both` chooses how pictures are sent. `html` (the default) stores each picture once, " +
		"as an image that becomes an inline SVG with tooltips where the notebook is trusted and stays a picture " +
		"where it is not (JupyterLab, the classic Notebook, nbconvert, VS Code); `svg` sends image/svg+xml only " +
		"(no tooltips in JupyterLab); `both` sends the two, for viewers that show no HTML. " +
		"`set max=SIZE` sets the budget of a cell's outputs together (tables and JSON are cut to fit, with a note).",
	Args: []kernel.Arg{
		{Name: "NAME", Doc: "the parameter's name: a letter or _ and then letters, digits or _", Kind: kernel.KindText, Optional: true},
		{Name: "VALUE", Doc: "its value (quote it to keep spaces)", Kind: kernel.KindText, Optional: true},
	},
	Options: []kernel.Option{
		{Name: "pictures", Doc: "the MIME types pictures are sent as", Default: kernel.PicturesHTML, Values: kernel.PictureModes},
		{Name: "max", Doc: "the most bytes of all of a cell's outputs together", Default: "2MiB"},
		{Name: "interactive", Doc: "show pictures as views that answer clicks (show, flame, phases, entities, cels, attach)", Default: "false", Values: []string{"true", "false"}},
	},
	Examples: []string{"set PROFILE demo:profvis-toy", "load $PROFILE as toy", "set pictures=both max=4MiB", "set"},
	Run:      runSet,
}

func runSet(c *kernel.Call) error {
	st := &c.Session.Settings
	if err := setOptions(c, st); err != nil {
		return err
	}
	switch len(c.Args) {
	case 0:
		if len(c.Opts) == 0 {
			c.Table(settingsTable(st))
		}
		return nil
	case 2:
		if !kernel.ValidParam(c.Args[0]) {
			return c.Usagef("%q is not a parameter name: use a letter or _ and then letters, digits or _", c.Args[0])
		}
		st.Params[c.Args[0]] = c.Args[1]
		return nil
	}
	return c.Usagef("give a NAME and one VALUE (quote a value with spaces)")
}

// setOptions applies the settings the call gives, after checking all of
// them, so that a bad one changes nothing.
func setOptions(c *kernel.Call, st *kernel.Settings) error {
	next := *st
	if c.Has("max") {
		n, err := kernel.ParseSize(c.Opt("max"))
		if err != nil {
			return c.Usagef("max=%s: %v", c.Opt("max"), err)
		}
		next.MaxOutput = n
	}
	if c.Has("pictures") {
		next.Pictures = c.Opt("pictures")
	}
	if c.Has("interactive") {
		next.Interactive = c.Opt("interactive") == "true"
	}
	*st = next
	return nil
}

// settingsTable lists the settings and the parameters set in the session.
func settingsTable(st *kernel.Settings) *kernel.Table {
	t := &kernel.Table{Columns: []string{"name", "value", "what"}}
	t.Rows = append(t.Rows,
		[]any{"pictures", st.Pictures, "setting: how pictures are sent (html, svg or both)"},
		[]any{"max", kernel.Cell{Text: analysis.FormatValue(st.MaxOutput, "bytes"), Value: st.MaxOutput}, "setting: the budget of a cell's outputs"},
		[]any{"interactive", fmt.Sprint(st.Interactive), "setting: pictures answer clicks (needs widget support in the front end)"})
	for _, name := range slices.Sorted(maps.Keys(st.Params)) {
		t.Rows = append(t.Rows, []any{"$" + name, st.Params[name], "parameter"})
	}
	t.Note = fmt.Sprintf("%d parameters set; environment variables stand in for parameters that are not", len(st.Params))
	return t
}
