package main

import (
	"bufio"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

//go:embed logo-svg.svg logo-32x32.png logo-64x64.png
var logos embed.FS

// kernelSpec is Jupyter's kernel.json.
// https://jupyter-client.readthedocs.io/en/stable/kernels.html#kernel-specs
type kernelSpec struct {
	Argv          []string       `json:"argv"`
	DisplayName   string         `json:"display_name"`
	Language      string         `json:"language"`
	InterruptMode string         `json:"interrupt_mode"`
	ProtocolVer   string         `json:"kernel_protocol_version"`
	Env           map[string]any `json:"env"`
	Metadata      map[string]any `json:"metadata"`
}

// installMain writes the kernelspec directory proflens/ with kernel.json and
// the logos, in the place chosen by the flags.
func installMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("proflens install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "install for the current user (~/.local/share/jupyter/kernels)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the sys.prefix of the Python that runs jupyter")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := kernelsDir(*user, *sysPrefix, *prefix)
	if err == nil {
		dir = filepath.Join(dir, "proflens")
		err = writeSpec(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "proflens install: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "installed kernelspec proflens in %s\n", dir)
	return 0
}

// kernelsDir returns the kernels directory for the chosen flags, following
// jupyter_core's paths: the user data dir honours JUPYTER_DATA_DIR and
// XDG_DATA_HOME; the default is system-wide (/usr/local/share/jupyter) for
// root and the user dir otherwise.
func kernelsDir(user, sysPrefix bool, prefix string) (string, error) {
	n := 0
	for _, b := range []bool{user, sysPrefix, prefix != ""} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return "", errors.New("choose at most one of --user, --sys-prefix and --prefix")
	case prefix != "":
		abs, err := filepath.Abs(prefix)
		return filepath.Join(abs, "share", "jupyter", "kernels"), err
	case sysPrefix:
		p, err := pythonPrefix()
		return filepath.Join(p, "share", "jupyter", "kernels"), err
	case user || os.Geteuid() != 0:
		d, err := userDataDir()
		return filepath.Join(d, "kernels"), err
	}
	return "/usr/local/share/jupyter/kernels", nil
}

func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("user data dir: %w", err)
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// pythonPrefix asks the Python that runs `jupyter` (its #! line) for
// sys.prefix; without jupyter on PATH it asks /usr/bin/python3.
func pythonPrefix() (string, error) {
	py := "/usr/bin/python3"
	if j, err := exec.LookPath("jupyter"); err == nil {
		if interp := shebang(j); interp != "" {
			py = interp
		}
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		return "", fmt.Errorf("ask %s for sys.prefix: %w", py, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// shebang returns the interpreter named on the #! line of file, or "".
func shebang(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		p, _ := exec.LookPath(fields[1])
		return p
	}
	return fields[0]
}

// writeSpec writes kernel.json (argv with this binary's absolute path) and
// the logos into dir.
func writeSpec(dir string) error {
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return fmt.Errorf("locate the proflens binary: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	spec := kernelSpec{
		Argv:        []string{bin, "kernel", "-f", "{connection_file}"},
		DisplayName: "proflens", Language: "proflens", InterruptMode: "message",
		ProtocolVer: jupyter.ProtocolVersion,
		Env:         map[string]any{}, Metadata: map[string]any{},
	}
	data, _ := json.MarshalIndent(spec, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write kernel.json: %w", err)
	}
	for _, name := range []string{"logo-svg.svg", "logo-32x32.png", "logo-64x64.png"} {
		b, _ := logos.ReadFile(name)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
