package jfr

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

// TestMemoryAgainstJFRTool: the memory events per class, and their sizes,
// are what `jfr print` lists for the recording's allocation events (both
// TLAB kinds), event for event.
func TestMemoryAgainstJFRTool(t *testing.T) {
	jfr := lookTool(t, "jfr")
	raw := gunzipTo(t, kafka)
	p := load(t, kafka)
	want := map[string]int{}
	for _, kind := range []string{"jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB"} {
		out, err := exec.Command(jfr, "print", "--events", kind, raw).Output()
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if cls, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "objectClass = "); ok {
				cls, _, _ = strings.Cut(cls, " (classLoader")
				want[cls]++
			}
		}
	}
	got := map[string]int{}
	for _, m := range p.Memory {
		if m.Free || m.Count != 1 || m.Stack < 0 {
			t.Fatalf("memory event %+v: want an allocation of one object with a stack", m)
		}
		got[p.Frames[m.Class].Name]++
	}
	if len(got) != len(want) || len(p.Memory) != 7972+2238 || p.MemorySource != analysis.MemorySampled {
		t.Errorf("%d memory events of %d classes (%s); jfr print lists %d classes, jfr summary 10210 events (sampled)",
			len(p.Memory), len(got), p.MemorySource, len(want))
	}
	for cls, n := range want {
		if got[cls] != n {
			t.Errorf("class %s: %d memory events, jfr print lists %d", cls, got[cls], n)
		}
	}
}

func TestClassName(t *testing.T) {
	for in, want := range map[string]string{"java/lang/String": "java.lang.String", "[B": "byte[]", "[[I": "int[][]",
		"[Ljava/lang/Object;": "java.lang.Object[]", "kafka/log/LogValidator$$$Lambda$1384+0x000000080157d750": "kafka.log.LogValidator$$$Lambda$1384+0x000000080157d750"} {
		if got := className(in); got != want {
			t.Errorf("className(%q) = %q, want %q", in, got, want)
		}
	}
}
