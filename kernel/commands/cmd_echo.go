package commands

import (
	"strings"

	"github.com/proflens/proflens/kernel"
)

var echoCommand = &kernel.Command{
	Name:    "echo",
	Summary: "Write text to the cell's output.",
	Doc: "Writes its words, joined by single spaces, and a newline. " +
		"Quote words to keep several spaces or a `#`.",
	Args: []kernel.Arg{{Name: "TEXT", Doc: "the words to write", Kind: kernel.KindText, Optional: true, Variadic: true}},
	Options: []kernel.Option{{Name: "stream", Doc: "the stream to write to", Default: "stdout",
		Values: []string{"stdout", "stderr"}}},
	Examples: []string{`echo hello, world`, `echo stream=stderr "something  went wrong"`},
	Run: func(c *kernel.Call) error {
		c.Out.Stream(c.Opt("stream"), strings.Join(c.Args, " ")+"\n")
		return nil
	},
}
