package commands

import (
	"github.com/proflens/proflens/internal/version"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

var versionCommand = &kernel.Command{
	Name:     "version",
	Summary:  "Show proflens's version, as `proflens version` prints it.",
	Examples: []string{"version"},
	Run: func(c *kernel.Call) error {
		c.Out.Result(jupyter.Bundle{"text/plain": version.String()}, nil)
		return nil
	},
}
