package jupyter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// ConnectionInfo is a Jupyter connection file: where the five channels
// listen and the key that signs messages. See
// https://jupyter-client.readthedocs.io/en/stable/kernels.html#connection-files
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	ControlPort     int    `json:"control_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"`
	Key             string `json:"key"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks the connection file at path.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("read connection file: %w", err)
	}
	if err := json.Unmarshal(data, &ci); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return ci, fmt.Errorf("connection file %s: byte %d: %w", path, se.Offset, err)
		}
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	if err := ci.check(); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	return ci, nil
}

func (ci *ConnectionInfo) check() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("transport %q: want tcp or ipc", ci.Transport)
	}
	if ci.IP == "" {
		return fmt.Errorf("ip: missing")
	}
	if ci.SignatureScheme != "" && ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("signature_scheme %q: only hmac-sha256 is supported", ci.SignatureScheme)
	}
	for _, p := range []int{ci.ShellPort, ci.IOPubPort, ci.StdinPort, ci.ControlPort, ci.HBPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("port %d: out of range 0..65535", p)
		}
	}
	return nil
}

// endpoint returns the ZeroMQ endpoint of port: tcp://IP:PORT, or for ipc the
// path IP-PORT, as jupyter_client builds it.
func (ci ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", ci.IP, port)
}
