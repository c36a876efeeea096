package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Granularity is what one frame of a profile, so one row of a report and
// one node of a call tree, stands for: pprof's -functions, -lines, -files
// and -addresses.
//
// A loader keeps what the file gives for each frame: its function's name,
// its source file, the line it was executing or calling from (pprof's
// line, py-spy's line), the machine address (a pprof location's) and its
// library. Parse then merges the frames of one function into one frame
// (At(Functions)), so that every view starts, as pprof does, at functions;
// the finer frames stay with the profile, for At.
//
// A frame at each granularity (granule):
//   - Functions: the name, file and library; the line and address are
//     dropped, and so is the line a Python location name carries
//     ("f (a.py:12)" becomes "f (a.py)"). A name that carries its
//     function's position (JavaScript's "f url:4:35") keeps it: that is
//     the function's identity, not a line within it.
//   - Lines: the name, file, line and library.
//   - Files: the source file (the file a Python or JavaScript location
//     name carries when the frame has none); "[lib]" or "<unknown>" for a
//     frame without a file, as pprof names them.
//   - Addresses: everything the loader kept.
//
// A report's row at each granularity is named as go tool pprof names it
// (RowName), so that top at each equals pprof's -top with the same flag.
type Granularity uint8

const (
	Functions Granularity = iota // a function: pprof's default
	Lines                        // a source line of a function
	Files                        // a source file
	Addresses                    // a machine address, with its function and line
)

// granularityNames are the granularities' names, as options spell them.
var granularityNames = [...]string{"functions", "lines", "files", "addresses"}

// Granularities lists every granularity's name, functions first.
func Granularities() []string { return granularityNames[:] }

// String returns the granularity's name: "functions", "lines"...
func (g Granularity) String() string {
	if int(g) < len(granularityNames) {
		return granularityNames[g]
	}
	return "granularity(" + strconv.Itoa(int(g)) + ")"
}

// rowLabels name one row at each granularity.
var rowLabels = [...]string{"function", "line", "file", "address"}

// Row returns the granularity's name for one row: "function", "line"...
func (g Granularity) Row() string {
	if int(g) < len(rowLabels) {
		return rowLabels[g]
	}
	return g.String()
}

// ParseGranularity reads a granularity's name.
func ParseGranularity(s string) (Granularity, error) {
	for g, name := range granularityNames {
		if s == name {
			return Granularity(g), nil
		}
	}
	return 0, fmt.Errorf("granularity %q: expected one of %s", s, strings.Join(granularityNames[:], ", "))
}

// At returns p with its frames at granularity g: a profile sharing p's
// samples and values whose stacks are p's, stack for stack and position
// for position, with each frame replaced by its granule (see Granularity).
// A recording's calls and memory events name the frames at g too. A
// profile Parse returned derives every granularity from the frames its
// loader made; a profile filtered or folded since (Filter,
// CollapseRecursion) has only its own frames, so take At before filtering.
// Time is linear in the frames, plus the total length of the stacks, calls
// and memory events when frames merge.
func (p *Profile) At(g Granularity) *Profile {
	if p.given == nil {
		return p.at(g)
	}
	if g == p.Granularity {
		return p
	}
	return p.given.at(g)
}

// at maps p's own frames to g. p itself is returned when no frame changes.
func (p *Profile) at(g Granularity) *Profile {
	of := make([]int32, len(p.Frames))
	index := make(map[Frame]int32, len(p.Frames))
	frames := make([]Frame, 0, len(p.Frames))
	changed := false
	for i, fr := range p.Frames {
		gr := granule(fr, g)
		changed = changed || gr != fr
		id, ok := index[gr]
		if !ok {
			id = int32(len(frames))
			frames = append(frames, gr)
			index[gr] = id
		}
		of[i] = id
	}
	if !changed && g == p.Granularity {
		return p
	}
	q := *p
	q.Frames, q.Granularity, q.given = frames, g, p
	if len(frames) < len(p.Frames) { // frames merged: renumber the stacks
		q.Stacks = Stacks{frames: make([]int32, len(p.Stacks.frames)), ends: p.Stacks.ends}
		for i, f := range p.Stacks.frames {
			q.Stacks.frames[i] = of[f]
		}
		q.Calls, q.Memory = callsAt(p.Calls, of), memoryAt(p.Memory, of)
	}
	return &q
}

// callsAt returns calls with their frames renumbered by of.
func callsAt(calls []Call, of []int32) []Call {
	if len(calls) == 0 {
		return calls
	}
	out := slices.Clone(calls)
	for i := range out {
		out[i].Frame = of[out[i].Frame]
	}
	return out
}

// memoryAt returns memory events with their classes renumbered by of.
func memoryAt(ms []Memory, of []int32) []Memory {
	if len(ms) == 0 {
		return ms
	}
	out := slices.Clone(ms)
	for i := range out {
		if out[i].Class >= 0 {
			out[i].Class = of[out[i].Class]
		}
	}
	return out
}

// distinctStacks counts p's distinct stacks: its stacks, but for a
// profile whose frames At merged, where stacks of one function's lines are
// one stack. Time is O(S log S) comparisons of stacks then.
func (p *Profile) distinctStacks() int {
	n := p.Stacks.Len()
	if p.given == nil || len(p.Frames) == len(p.given.Frames) || n == 0 {
		return n
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return slices.Compare(p.Stacks.At(a), p.Stacks.At(b)) })
	distinct := 1
	for i := 1; i < n; i++ {
		if !slices.Equal(p.Stacks.At(order[i-1]), p.Stacks.At(order[i])) {
			distinct++
		}
	}
	return distinct
}

// granule returns frame fr at granularity g.
func granule(fr Frame, g Granularity) Frame {
	switch g {
	case Functions:
		return Frame{Name: functionName(fr.Name), File: fr.File, Lib: fr.Lib}
	case Lines:
		return Frame{Name: fr.Name, File: fr.File, Line: fr.Line, Lib: fr.Lib}
	case Files:
		return Frame{Name: fileRow(fr), File: frameFile(fr), Lib: fr.Lib}
	}
	return fr
}

// functionName returns a frame name without the line a Python location
// carries: "f (a.py:12)" → "f (a.py)". Other names are returned as they
// are.
func functionName(name string) string {
	if !isPythonLoc(name) {
		return name
	}
	open := strings.LastIndex(name, " (")
	loc := name[open+2 : len(name)-1]
	if colon := strings.LastIndexByte(loc, ':'); colon >= 0 {
		return name[:open+2] + loc[:colon] + ")"
	}
	return name
}

// frameFile returns the source file of a frame: its File, else the file a
// Python or JavaScript location name carries; "" when neither says.
func frameFile(fr Frame) string {
	if fr.File != "" {
		return fr.File
	}
	if l, ok := pythonLoc(fr.Name); ok {
		return l.file
	}
	if url, _, _, ok := jsLoc(fr.Name); ok {
		return url
	}
	return ""
}

// fileRow names the row of a frame at Files as pprof does: its file,
// cleaned; else "[" + its library's base name + "]", or the name of a frame
// named after its library ("[libc.so.6]"), or "<unknown>".
func fileRow(fr Frame) string {
	switch f := frameFile(fr); {
	case f != "":
		return cleanPath(f)
	case fr.Lib != "":
		return "[" + filepath.Base(fr.Lib) + "]"
	case strings.HasPrefix(fr.Name, "[") && strings.HasSuffix(fr.Name, "]"):
		return fr.Name
	}
	return "<unknown>"
}

// cleanPath cleans a file path as pprof does (filepath.Clean); URLs are
// left as they are.
func cleanPath(f string) string {
	if strings.Contains(f, "://") {
		return f
	}
	return filepath.Clean(f)
}

// carriesLine reports whether a frame's name already says where in its
// file the frame is: a Python location with a line, a "file:line - fn" of
// Pyroscope's agents, a JavaScript location.
func carriesLine(name string) bool {
	if l, ok := pythonLoc(name); ok {
		return l.line != ""
	}
	return isJSLoc(name) || agentScript(name) != ""
}

// RowName returns the name of frame f's row in a report of p, as go tool
// pprof prints it at p's granularity: the function's name; at Lines the
// name followed by "file:line" (unless the name carries its line); at
// Files the file; at Addresses the address in hex before the name and
// line.
func (p *Profile) RowName(f int32) string { return rowName(&p.Frames[f], p.Granularity) }

// rowName names the row of a frame at granularity g (RowName).
func rowName(fr *Frame, g Granularity) string {
	switch g {
	case Lines:
		return lineRow(fr)
	case Addresses:
		if fr.Addr != 0 {
			return fmt.Sprintf("%016x %s", fr.Addr, lineRow(fr))
		}
		return lineRow(fr)
	}
	return fr.Name
}

// lineRow names a frame's row at Lines as pprof does.
func lineRow(fr *Frame) string {
	switch {
	case carriesLine(fr.Name):
		return fr.Name
	case fr.Line != 0:
		return fr.Name + " " + cleanFile(fr.File) + ":" + strconv.FormatInt(fr.Line, 10)
	case fr.File != "":
		return fr.Name + " " + cleanFile(fr.File)
	}
	return fr.Name
}

// cleanFile is cleanPath for a file that may be "".
func cleanFile(f string) string {
	if f == "" {
		return ""
	}
	return cleanPath(f)
}

// Available counts, per granularity, the rows a report of p has at it;
// 0 where p's frames do not say (no file, no line, no address): the
// granularity then adds nothing to functions.
func (p *Profile) Available() [len(granularityNames)]int {
	src := p
	if p.given != nil {
		src = p.given
	}
	var says [len(granularityNames)]bool
	says[Functions] = true
	for i := range src.Frames {
		fr := &src.Frames[i]
		says[Lines] = says[Lines] || fr.Line != 0 && !carriesLine(fr.Name) || functionName(fr.Name) != fr.Name
		says[Files] = says[Files] || frameFile(*fr) != ""
		says[Addresses] = says[Addresses] || fr.Addr != 0
	}
	var out [len(granularityNames)]int
	for g, ok := range says {
		if ok {
			out[g] = countRows(src.Frames, Granularity(g))
		}
	}
	return out
}

// countRows counts the distinct rows of frames at granularity g.
func countRows(frames []Frame, g Granularity) int {
	seen := make(map[string]bool, len(frames))
	for i := range frames {
		gr := granule(frames[i], g)
		seen[rowName(&gr, g)] = true
	}
	return len(seen)
}
