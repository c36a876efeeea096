package chrome

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// objects is a trace of spans on two threads with object events: Path.parse
// on the main thread creates two strings, the worker creates a byte array
// at the top, and a string is destroyed by the worker after the main
// thread's spans have closed; an O snapshot changes nothing.
const objects = `{"traceEvents":[
 {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
 {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"gc"}},
 {"ph":"B","name":"ui.Wizard.finish","ts":100,"pid":1,"tid":1},
 {"ph":"B","name":"core.Path.parse","ts":110,"pid":1,"tid":1},
 {"ph":"N","name":"java.lang.String","id":"0x1","ts":120,"pid":1,"tid":1},
 {"ph":"N","name":"java.lang.String","id":"0x2","ts":130,"pid":1,"tid":1},
 {"ph":"O","name":"java.lang.String","id":"0x2","ts":131,"pid":1,"tid":1},
 {"ph":"E","name":"core.Path.parse","ts":140,"pid":1,"tid":1},
 {"ph":"N","name":"byte[]","id":"0x3","ts":150,"pid":1,"tid":2},
 {"ph":"E","name":"ui.Wizard.finish","ts":160,"pid":1,"tid":1},
 {"ph":"X","name":"gc.Collector.run","ts":170,"dur":20,"pid":1,"tid":2},
 {"ph":"D","name":"java.lang.String","id":"0x1","ts":180,"pid":1,"tid":2}
]}`

func TestObjects(t *testing.T) {
	p, err := analysis.Parse(context.Background(), "objects.json", []byte(objects), analysis.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.Memory {
		leaf := "none"
		if m.Stack >= 0 {
			st := p.Stacks.At(m.Stack)
			leaf = p.Frames[st[len(st)-1]].Name
		}
		got = append(got, fmt.Sprintf("%d %s %s %s free=%v", m.Time/1000, p.ThreadName(m.Thread), leaf, p.Frames[m.Class].Name, m.Free))
	}
	want := []string{
		"20 main (pid 1, tid 1) core.Path.parse java.lang.String free=false",
		"30 main (pid 1, tid 1) core.Path.parse java.lang.String free=false",
		"50 gc (pid 1, tid 2) none byte[] free=false",
		"80 gc (pid 1, tid 2) gc.Collector.run java.lang.String free=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || p.MemorySource != analysis.MemoryTraced {
		t.Errorf("memory events (%s):\n%s\nwant (traced):\n%s", p.MemorySource, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Calls) != 3 {
		t.Errorf("%d calls, want 3", len(p.Calls))
	}
}
