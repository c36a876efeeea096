package commands

import "github.com/proflens/proflens/kernel"

var viewCommand = &kernel.Command{
	Name:    "view",
	Summary: "The compacted tree as indented text, with handles and node counts.",
	Doc: "One line per compacted node, `name [total]  (handle)`, children by descending total; a handle " +
		"or a path of names is a TARGET for expand and compact. The first line counts call-tree nodes " +
		"before and compacted nodes after.",
	Options:  []kernel.Option{maxOpt},
	Examples: []string{"load demo:profvis-toy as toy", "view", "view toy max=10", "view hide=Muscle"},
	Profiles: 1,
	Tree:     true,
	Run:      runView,
}

func runView(c *kernel.Call) error {
	v, err := c.View()
	if err != nil {
		return err
	}
	return showView(c, v, "")
}
