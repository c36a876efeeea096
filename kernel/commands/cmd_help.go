package commands

import "github.com/proflens/proflens/kernel"

var helpCommand = &kernel.Command{
	Name:     "help",
	Summary:  "List the commands, or show one command's usage, options and examples.",
	Doc:      "Without an argument, lists every command with its summary. `CMD?` shows the same page as `help CMD` in the pager.",
	Args:     []kernel.Arg{{Name: "CMD", Doc: "a command name", Kind: kernel.KindCommand, Optional: true}},
	Examples: []string{"help", "help echo"},
	Run: func(c *kernel.Call) error {
		if len(c.Args) == 0 {
			c.Out.Display(kernel.IndexBundle(c.Session.Commands()), nil)
			return nil
		}
		cmd, err := c.Session.Commands().LookupWord(c.Args[0])
		if err != nil {
			return err
		}
		c.Out.Display(kernel.HelpBundle(cmd), nil)
		return nil
	},
}
