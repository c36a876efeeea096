package jupyter

import (
	"regexp"
	"strings"
	"sync"
)

// session is the history session number of this process: proflens keeps
// history in memory only, so there is one session per kernel process.
const historySession = 1

// historyEntry is one stored cell.
type historyEntry struct {
	line   int
	input  string
	output string // text/plain of the result, "" when none
}

// history is the in-memory input history, safe for concurrent use.
type history struct {
	mu      sync.Mutex
	entries []historyEntry
}

func (h *history) add(e historyEntry) {
	h.mu.Lock()
	h.entries = append(h.entries, e)
	h.mu.Unlock()
}

// historyRequest is the content of history_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#history
type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// history answers history_request: tail, range and search.
func (r *request) history() {
	var c historyRequest
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	r.k.hist.mu.Lock()
	all := append([]historyEntry(nil), r.k.hist.entries...)
	r.k.hist.mu.Unlock()
	var got []historyEntry
	switch c.HistAccessType {
	case "tail":
		got = tail(all, c.N)
	case "range":
		got = lineRange(all, c)
	case "search":
		got = search(all, c)
	}
	items := make([]any, 0, len(got))
	for _, e := range got {
		var cell any = e.input
		if c.Output {
			cell = []string{e.input, e.output}
		}
		items = append(items, []any{historySession, e.line, cell})
	}
	r.reply(map[string]any{"status": "ok", "history": items})
}

func tail(all []historyEntry, n int) []historyEntry {
	if n >= 0 && n < len(all) {
		return all[len(all)-n:]
	}
	return all
}

// lineRange returns lines start ≤ line < stop of the current session
// (session 0 or 1; a negative session is an earlier one, which does not exist).
func lineRange(all []historyEntry, c historyRequest) []historyEntry {
	if c.Session != 0 && c.Session != historySession {
		return nil
	}
	var out []historyEntry
	for _, e := range all {
		if e.line >= c.Start && (c.Stop == nil || e.line < *c.Stop) {
			out = append(out, e)
		}
	}
	return out
}

// search returns the entries whose input matches the glob pattern (* and ?),
// the last n of them when n > 0, each input once when unique.
func search(all []historyEntry, c historyRequest) []historyEntry {
	re := globRegexp(c.Pattern)
	var out []historyEntry
	seen := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		if !re.MatchString(e.input) || (c.Unique && seen[e.input]) {
			continue
		}
		seen[e.input] = true
		out = append(out, e)
		if c.N > 0 && len(out) == c.N {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// globRegexp compiles a glob (* any run, ? one character) matching the whole input.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}
