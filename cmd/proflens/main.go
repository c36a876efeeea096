// Command proflens is a Jupyter kernel for reading program profiles.
//
//	proflens kernel -f CONNECTION_FILE   serve a notebook (Jupyter starts this)
//	proflens install [--user | --sys-prefix | --prefix DIR]
//	proflens run [-c CMDS | FILE.plens]  the same language without Jupyter
//	proflens version
//	proflens demo-target [-agent BUDGET] [-schedule …]   a program with known phases to attach to
//	proflens help
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/proflens/proflens/internal/version"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/commands"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/live/demo"
)

const usage = `proflens — a Jupyter kernel for reading program profiles

usage:
  proflens kernel -f CONNECTION_FILE   serve one notebook; Jupyter runs this
  proflens install [--user | --sys-prefix | --prefix DIR]
                                       register the kernel with Jupyter
  proflens run [-c CMDS | FILE.plens]  run commands without Jupyter
  proflens version                     print the version
  proflens demo-target [-agent 1%]     a Go program with known phases serving its
                                       profiles, for attach (see help attach)
  proflens help                        print this text
`

// language is the commands the kernel and run serve.
var language = commands.All

func main() { os.Exit(mainArgs(os.Args[1:], os.Stdout, os.Stderr)) }

// mainArgs runs one subcommand and returns the exit status.
func mainArgs(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "kernel":
		return kernelMain(args[1:], stderr)
	case "install":
		return installMain(args[1:], stdout, stderr)
	case "run":
		return runMain(args[1:])
	case demo.Subcommand:
		if err := demo.Main(args[1:], stdout); err != nil {
			fmt.Fprintln(stderr, "proflens demo-target:", err)
			return 2
		}
		return 0
	case "version", "--version", "-V":
		fmt.Fprintln(stdout, version.String())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "proflens: unknown subcommand %q\n\n%s", args[0], usage)
	return 2
}

// kernelMain serves the notebook described by the connection file until
// shutdown. SIGINT interrupts the running cell; SIGTERM and SIGHUP stop.
func kernelMain(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("proflens kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("f", "", "Jupyter connection file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *file == "" {
		fmt.Fprintln(stderr, "proflens kernel: -f CONNECTION_FILE is required")
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ci, err := jupyter.ReadConnectionFile(*file)
	if err != nil {
		log.Error("cannot start kernel", "err", err)
		return 1
	}
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	in := kernel.New(dir, language)
	in.Log = log
	k, err := jupyter.Listen(ci, in, log)
	if err != nil {
		log.Error("cannot start kernel", "err", err)
		return 1
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		for s := range sigs {
			if s == os.Interrupt {
				log.Info("SIGINT: interrupting the running cell")
				k.Interrupt()
				continue
			}
			log.Info("stopping on signal", "signal", s.String())
			k.Shutdown()
		}
	}()
	k.Serve(context.Background())
	in.Session().Close() // live collections end, and the demo targets they started
	return 0
}
