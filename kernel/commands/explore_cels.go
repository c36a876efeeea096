package commands

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/proflens/proflens/kernel"
)

// celsExplore says what a click on an arc of a cel stands for: the calls
// behind it made in that cel (calls FROM TO cel=K, under the options that
// cut and filter the cels), listed under the cels.
func celsExplore(c *kernel.Call) *kernel.Explore {
	base := c.CommandLine(kernel.InteractiveOption.Name)
	var rest []string
	for _, k := range slices.Sorted(maps.Keys(c.Opts)) {
		if k != kernel.InteractiveOption.Name && k != "max" {
			rest = append(rest, k+"="+quoteArg(c.Opts[k]))
		}
	}
	profile := quoteArg(c.Profile().Name)
	return &kernel.Explore{Command: base, Step: func(cl kernel.Click, _ string) (*kernel.Action, error) {
		from, to, ok := strings.Cut(cl.Title, " → ")
		k, err := strconv.Atoi(cl.Part)
		if !ok || err != nil || k < 1 {
			return nil, nil
		}
		words := append([]string{"calls", profile, quoteArg(from), quoteArg(to), "cel=" + strconv.Itoa(k)}, rest...)
		line := strings.Join(words, " ")
		return &kernel.Action{Lines: []string{line}, Redraw: base + "\n" + line, Do: noChange}, nil
	}}
}
