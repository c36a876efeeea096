// Command pathdemo writes the synthetic pair of CPU profiles that
// notebooks/compare.ipynb compares: the "import from files" operation of an
// Eclipse-like IDE in two builds, after the AVID paper's second case study
// (seed 001, §3.2). In the fast build, org.eclipse.core.runtime.Path splits
// a path into segments once, when it is made; in the slow one, a change put
// back the old implementation, which keeps the path as one string and
// parses it on every call to segment, through String.indexOf and
// String.substring, and the garbage they make. Everything else is the same
// work, but Path.toString, which the fast build must assemble from the
// segments. The profiles are written from the tables below, so they are the
// same on every run:
//
//	go run ./notebooks/pathdemo -o notebooks/data
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/pprof"
)

// Call paths shared by the rows below.
const (
	ui     = "org.eclipse.ui.internal.Workbench.run;org.eclipse.swt.widgets.Display.readAndDispatch"
	op     = ui + ";org.eclipse.ui.wizards.datatransfer.ImportOperation.run;org.eclipse.ui.wizards.datatransfer.ImportOperation.importFile"
	path   = "org.eclipse.core.runtime.Path"
	strs   = "java.lang.String"
	create = op + ";org.eclipse.core.internal.resources.File.create"
)

// rows are the stacks (root first, separated by ";") with their samples in
// the fast and the slow build, at 100 Hz.
var rows = []struct {
	stack      string
	fast, slow int64
}{
	{ui + ";org.eclipse.swt.widgets.Display.sleep", 120, 120},
	{ui + ";org.eclipse.ui.internal.progress.ProgressMonitorDialog.worked;org.eclipse.swt.widgets.ProgressBar.setSelection", 22, 22},
	{create + ";java.io.FileInputStream.readBytes", 150, 150},
	{create + ";java.io.FileOutputStream.writeBytes", 130, 130},
	{op + ";" + path + ".<init>;" + path + ".computeSegments;" + strs + ".substring", 60, 0},
	{op + ";" + path + ".<init>", 4, 5},
	{op + ";" + path + ".append;" + path + ".segment", 25, 30},
	{op + ";" + path + ".append;" + path + ".segment;" + strs + ".indexOf", 0, 140},
	{op + ";" + path + ".append;" + path + ".segment;" + strs + ".substring;" + strs + ".<init>;java.util.Arrays.copyOfRange", 0, 160},
	{op + ";org.eclipse.core.internal.resources.Resource.getFullPath;" + path + ".segment", 8, 9},
	{op + ";org.eclipse.core.internal.resources.Resource.getFullPath;" + path + ".segment;" + strs + ".indexOf", 0, 80},
	{op + ";" + path + ".toString;java.lang.StringBuilder.append", 40, 10},
	{"java.lang.ref.Reference$ReferenceHandler.run;java.lang.ref.Reference.processPendingReferences", 20, 110},
}

const period = 10_000_000 // ns: 100 Hz

func main() {
	out := flag.String("o", "notebooks/data", "directory to write import-fast.pb.gz and import-slow.pb.gz to")
	flag.Parse()
	for _, build := range []string{"fast", "slow"} {
		p := profileOf(build)
		f, err := os.Create(filepath.Join(*out, "import-"+build+".pb.gz"))
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Write(f, p); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

// profileOf builds the CPU profile of one build from rows.
func profileOf(build string) *analysis.Profile {
	b := analysis.NewBuilder("pprof", analysis.ValueType{Type: "samples", Unit: "count"}, analysis.ValueType{Type: "cpu", Unit: "nanoseconds"})
	p := b.Profile()
	p.Period, p.PeriodType, p.DefaultValue = period, analysis.ValueType{Type: "cpu", Unit: "nanoseconds"}, 1
	p.Comment = []string{"synthetic: the import-from-files operation, " + build + " build (notebooks/pathdemo)"}
	for _, r := range rows {
		n := r.fast
		if build == "slow" {
			n = r.slow
		}
		if n == 0 {
			continue
		}
		var st []int32
		for _, name := range strings.Split(r.stack, ";") {
			st = append(st, b.Frame(analysis.Frame{Name: name}))
		}
		b.Add(b.Stack(st), []int64{n, n * period}, 0, false, "", nil)
	}
	p = b.Finish()
	return p
}
