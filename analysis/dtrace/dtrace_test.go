package dtrace

import (
	"strings"
	"testing"
)

func TestDTraceFrames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"genunix`kmem_cpu_reload+0x20", []string{"genunix`kmem_cpu_reload"}},
		{"libstdc++.so`std::vector<int>::push_back(int const&)+0x1", []string{"libstdc++.so`std::vector<int>::push_back"}},
		{"a.out`ns::Foo<int>::bar(int)", []string{"a.out`ns::Foo<int>::bar"}},
		{"Lcom/x/Y;.m->inl", []string{"com/x/Y:.m", "inl_[i]"}},
		{"+0x10", []string{"-"}},
	} {
		if got := dtraceFrames(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("dtraceFrames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
