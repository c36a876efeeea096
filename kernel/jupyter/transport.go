package jupyter

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
)

// listenGuarded listens on a ZeroMQ endpoint (tcp://HOST:PORT or ipc://PATH)
// behind a guard with policy pol, seating its connections with adm. A stale
// socket file from an earlier kernel is removed first; nothing else is.
func listenGuarded(endpoint string, pol policy, adm *admission, log *slog.Logger) (*guardListener, error) {
	network, addr, err := splitEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	if network == "unix" {
		if fi, err := os.Lstat(addr); err == nil && fi.Mode()&os.ModeSocket != 0 {
			os.Remove(addr)
		}
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	return guard(ln, pol, adm, log), nil
}

// splitEndpoint turns tcp://HOST:PORT or ipc://PATH into a net network and address.
func splitEndpoint(endpoint string) (network, addr string, err error) {
	scheme, addr, ok := strings.Cut(endpoint, "://")
	switch {
	case ok && scheme == "tcp":
		return "tcp", addr, nil
	case ok && scheme == "ipc":
		return "unix", addr, nil
	}
	return "", "", fmt.Errorf("endpoint %q: want tcp://HOST:PORT or ipc://PATH", endpoint)
}
