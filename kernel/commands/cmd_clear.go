package commands

import "github.com/proflens/proflens/kernel"

var clearCommand = &kernel.Command{
	Name:     "clear",
	Summary:  "Clear the cell's output.",
	Doc:      "Removes what the cell has shown so far; later commands of the cell show as usual.",
	Examples: []string{"echo this line disappears", "clear"},
	Run: func(c *kernel.Call) error {
		c.Out.Clear(false)
		return nil
	},
}
