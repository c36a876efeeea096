package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// runMain implements `proflens run [-c CMDS | FILE.plens | -]`.
func runMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// run runs the commands of -c or of a file (- for stdin) in a fresh
// session resolving paths against the working directory: text goes to
// stdout, each display's text/plain too, pictures only to the files the
// commands name. An error is printed to stderr as FILE:LINE: message and
// gives exit status 1; bad usage of run itself gives 2.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("proflens run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cmds lines
	fs.Var(&cmds, "c", "commands to run, one per line; repeat -c for more lines")
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: proflens run [-c CMDS]... | FILE.plens | -") }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	name, code, err := source(fs, cmds.String(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "proflens run: %v\n", err)
		fs.Usage()
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	out := &textOutput{stdout: stdout, stderr: stderr}
	in := kernel.New(dir, language)
	defer in.Session().Close() // a background attach ends with the run
	line, jerr := in.Run(ctx, code, out)
	if jerr == nil {
		return 0
	}
	var se *kernel.SyntaxError
	if _, perr := kernel.Parse(code); errors.As(perr, &se) {
		fmt.Fprintf(stderr, "%s:%d:%d: %s\n", name, se.Line, se.Col, se.Msg)
		return 1
	}
	fmt.Fprintf(stderr, "%s:%d: %s\n", name, line, describe(jerr))
	return 1
}

// lines collects repeated -c flags as the lines of one cell, so that
// -c 'load x' -c top runs both, and an error's line number is the number
// of the -c that failed.
type lines []string

func (l *lines) String() string     { return strings.Join(*l, "\n") }
func (l *lines) Set(s string) error { *l = append(*l, s); return nil }

// source returns the name used in error messages and the code to run.
func source(fs *flag.FlagSet, cmds string, stdin io.Reader) (string, string, error) {
	c := false
	fs.Visit(func(f *flag.Flag) { c = c || f.Name == "c" })
	switch {
	case c && fs.NArg() == 0:
		return "-c", cmds, nil
	case c || fs.NArg() > 1:
		return "", "", errors.New("give either -c CMDS or one FILE")
	case fs.NArg() == 0:
		return "", "", errors.New("nothing to run")
	case fs.Arg(0) == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", "", fmt.Errorf("read stdin: %w", err)
		}
		return "stdin", string(b), nil
	}
	b, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return "", "", fmt.Errorf("read commands: %w", err)
	}
	return fs.Arg(0), string(b), nil
}

// describe renders a Jupyter error for a terminal: usage and other named
// errors keep their name; plain errors are just the message.
func describe(e *jupyter.Error) string {
	if e.Name == "Error" {
		return e.Value
	}
	return e.Name + ": " + e.Value
}

// textOutput is the jupyter.Output of run: streams to stdout and stderr,
// bundles and pager pages as their text/plain.
type textOutput struct {
	stdout, stderr io.Writer
}

func (o *textOutput) Stream(name, text string) {
	if name == "stderr" {
		io.WriteString(o.stderr, text)
		return
	}
	io.WriteString(o.stdout, text)
}

func (o *textOutput) text(s string) {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	io.WriteString(o.stdout, s)
}

func (o *textOutput) Display(data jupyter.Bundle, _ map[string]any) {
	s, _ := data["text/plain"].(string)
	o.text(s)
}

func (o *textOutput) Result(data jupyter.Bundle, meta map[string]any) { o.Display(data, meta) }

func (o *textOutput) Clear(bool) {}

func (o *textOutput) Payload(p map[string]any) {
	if data, ok := p["data"].(map[string]any); ok && p["source"] == "page" {
		s, _ := data["text/plain"].(string)
		o.text(s)
	}
}
