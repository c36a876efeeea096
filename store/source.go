package store

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// The kinds of store, as their URL schemes name them.
const (
	Pyroscope = "pyroscope"
	Parca     = "parca"
)

// defaultPorts are the ports the stores listen on out of the box.
var defaultPorts = map[string]string{Pyroscope: "4040", Parca: "7070"}

// Source is what a store URL names: KIND://HOST:PORT/QUERY, or
// KIND+https://… for a store behind TLS. A URL without a query names the
// store alone, for discovery.
type Source struct {
	Kind  string // Pyroscope or Parca
	TLS   bool   // https rather than http
	Host  string // HOST:PORT (the kind's default port when none was given)
	Query Query  // zero when the URL names no query
}

// Query selects profiles: a profile type and label matchers, in the
// store's own syntax: TYPE{name="value",name=~"regexp",…}.
type Query struct {
	Type     string // profile type, e.g. process_cpu:cpu:nanoseconds:cpu:nanoseconds
	Matchers []Matcher
}

// Matcher is one label matcher of a query.
type Matcher struct {
	Name  string
	Op    string // =, !=, =~ or !~
	Value string
}

// IsURL reports whether s names a store (pyroscope:// or parca://,
// optionally +https).
func IsURL(s string) bool {
	kind, _, ok := strings.Cut(s, "://")
	kind = strings.TrimSuffix(kind, "+https")
	return ok && (kind == Pyroscope || kind == Parca)
}

// ParseURL parses a store URL. The query's label values may be quoted
// ("…", with Go escapes) or bare, up to the next , or }: the kernel's word
// rules remove the quotes of `{service_name="checkout"}`, and a bare value
// reads the same.
func ParseURL(s string) (Source, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !IsURL(s) {
		return Source{}, fmt.Errorf("%s: expected pyroscope://HOST:PORT/QUERY or parca://HOST:PORT/QUERY", s)
	}
	src := Source{Kind: strings.TrimSuffix(scheme, "+https"), TLS: strings.HasSuffix(scheme, "+https")}
	host, query, _ := strings.Cut(rest, "/")
	var err error
	if src.Host, err = hostPort(host, defaultPorts[src.Kind]); err != nil {
		return Source{}, fmt.Errorf("%s: %w", s, err)
	}
	if query == "" {
		return src, nil
	}
	if src.Query, err = ParseQuery(query); err != nil {
		return Source{}, fmt.Errorf("%s: %w", s, err)
	}
	return src, nil
}

// hostPort checks HOST[:PORT] and adds the default port.
func hostPort(host, port string) (string, error) {
	if host == "" {
		return "", fmt.Errorf("no host: expected HOST:PORT after ://")
	}
	h, p, err := net.SplitHostPort(host)
	if err != nil {
		h, p = strings.Trim(host, "[]"), port
	}
	if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 || h == "" || strings.ContainsAny(h, "@?# ") {
		return "", fmt.Errorf("%q is not HOST:PORT (e.g. 127.0.0.1:%s)", host, port)
	}
	return net.JoinHostPort(h, p), nil
}

// String gives the URL back, with the query in its normal form.
func (s Source) String() string {
	scheme := s.Kind
	if s.TLS {
		scheme += "+https"
	}
	u := scheme + "://" + s.Host
	if !s.Query.IsZero() {
		u += "/" + s.Query.String()
	}
	return u
}

// Store gives the URL of the store alone, without the query.
func (s Source) Store() string {
	s.Query = Query{}
	return s.String()
}

// base is the HTTP address requests go to.
func (s Source) base() string {
	if s.TLS {
		return "https://" + s.Host
	}
	return "http://" + s.Host
}

// IsZero reports whether q selects nothing (a URL without a query).
func (q Query) IsZero() bool { return q.Type == "" && len(q.Matchers) == 0 }

// Selector gives the matchers in the stores' syntax, values quoted:
// {service_name="checkout"}; {} when there are none.
func (q Query) Selector() string {
	parts := make([]string, len(q.Matchers))
	for i, m := range q.Matchers {
		parts[i] = m.Name + m.Op + strconv.Quote(m.Value)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// String gives the query in the stores' syntax, TYPE{…}.
func (q Query) String() string { return q.Type + q.Selector() }
