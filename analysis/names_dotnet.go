package analysis

import "strings"

// .NET names: "Assembly!Namespace.Type.Method(arguments)", as TraceEvent
// writes them for dotnet-trace, PerfView and Pyroscope's agent
// ("System.Private.CoreLib!System.Threading.Tasks.Task.Wait(int32,value
// class System.Threading.CancellationToken)"). ECMA-335 names a method by
// its type and a type by its namespace and name (Partition II, §22.37
// TypeDef: TypeNamespace, TypeName), within the assembly that defines it;
// nested types follow their enclosing type after "+" (§22.32 NestedClass,
// as reflection writes them). A reader means the namespace
// ("System.Collections.Generic"), with the assembly coarser. The elements:
//
//   - the assembly ("System.Private.CoreLib");
//   - the namespace, whole ("!System.Threading.Tasks"): a namespace is one
//     name whose dots are part of it, not a nesting;
//   - the type, then each nested type (".RuntimeType" · "+RuntimeTypeCache"),
//     generic arity and instantiation kept ("+MemberInfoCache`1[System.__Canon]");
//   - the method with its arguments (".Wait(int32,…)"), constructors too
//     (".ctor" of "System.Object..ctor()").
//
// The namespace is every dotted part before the type, and the type the
// part before the method. A method that implements an interface
// explicitly is named after the interface
// ("SocketAsyncEngine.System.Threading.IThreadPoolWorkItem.Execute"): when
// the namespace's first part comes again, the method's name starts there.
//
//	System.Private.CoreLib!System.Threading.Tasks.Task.Wait(int32)
//	→ System.Private.CoreLib · !System.Threading.Tasks · .Task · .Wait(int32)

// splitDotnet splits a .NET method name without its assembly; the first
// element has no leading separator.
func splitDotnet(name string) []string {
	head := len(name)
	if i := strings.IndexByte(name, '('); i > 0 {
		head = i
	}
	parts := dotnetParts(name, head)
	m := explicitMethod(parts)
	if m == 0 {
		return []string{name}
	}
	var out []string
	if t := m - 1; t > 0 {
		out = splitNested(parts[t], []string{strings.Join(parts[:t], "")})
	} else {
		out = splitNested(parts[0], nil)
	}
	return append(out, strings.Join(parts[m:], "")+name[head:])
}

// explicitMethod returns the index of the part where the method's name
// starts: the last part, or for an explicitly implemented interface
// method, the part that starts the interface's namespace again (the first
// part, "System" or "Microsoft", with at least a type and a method after
// it).
func explicitMethod(parts []string) int {
	for j := 2; j+2 < len(parts); j++ {
		if p := parts[j]; p == "."+parts[0] || p == ".System" || p == ".Microsoft" {
			return j
		}
	}
	return len(parts) - 1
}

// dotnetParts cuts name[:head] at the dots outside brackets, each part but
// the first with its dot; ".ctor" and ".cctor" keep their own dot.
func dotnetParts(name string, head int) []string {
	return cutAt(name, 0, head, func(s string, i int) int {
		if s[i] == '.' && i > 0 && s[i-1] != '.' {
			return 1
		}
		return 0
	}, nil)
}

// splitNested appends a type cut before each "+" of a nested type.
func splitNested(t string, out []string) []string {
	return cutAt(t, 0, len(t), func(s string, i int) int {
		if s[i] == '+' {
			return 1
		}
		return 0
	}, out)
}
