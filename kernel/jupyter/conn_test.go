package jupyter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConnectionFile(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"good", `{"transport":"tcp","ip":"127.0.0.1","shell_port":1,"key":"k","signature_scheme":"hmac-sha256"}`, ""},
		{"no transport means tcp", `{"ip":"127.0.0.1"}`, ""},
		{"bad JSON", `{"ip":`, "unexpected end of JSON input"},
		{"bad JSON at byte", `{"ip": x}`, "byte 8"},
		{"bad transport", `{"transport":"udp","ip":"x"}`, `transport "udp"`},
		{"bad scheme", `{"ip":"x","signature_scheme":"hmac-md5"}`, "only hmac-sha256"},
		{"no ip", `{"transport":"tcp"}`, "ip: missing"},
		{"bad port", `{"ip":"x","hb_port":70000}`, "port 70000"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			os.WriteFile(p, []byte(tt.json), 0o600)
			_, err := ReadConnectionFile(p)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("ReadConnectionFile(%s) = %v, want no error", tt.json, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), p)):
				t.Errorf("ReadConnectionFile(%s) = %v, want an error naming the file and %q", tt.json, err, tt.wantErr)
			}
		})
	}
	if _, err := ReadConnectionFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Errorf("missing file: no error")
	}
}

func ExampleReadConnectionFile() {
	p := filepath.Join(os.TempDir(), "proflens-example-connection.json")
	os.WriteFile(p, []byte(`{"transport":"tcp","ip":"127.0.0.1","shell_port":5555,"iopub_port":5556,
		"key":"secret","signature_scheme":"hmac-sha256"}`), 0o600)
	defer os.Remove(p)
	ci, err := ReadConnectionFile(p)
	fmt.Println(err, ci.endpoint(ci.ShellPort), ci.endpoint(ci.IOPubPort))
	// Output: <nil> tcp://127.0.0.1:5555 tcp://127.0.0.1:5556
}
