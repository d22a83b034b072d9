package bus

import (
	"net"
	"strings"
)

// BindHost is the address a server binds for the host of a listen address (HOST:PORT)
// that was checked with LoopbackHost: "localhost" is bound as 127.0.0.1, so that what was
// checked as loopback is loopback whatever a resolver says of the name, and an empty host
// (":4222") as 0.0.0.0, every interface, as in Go's own listeners.
func BindHost(host string) string {
	switch {
	case host == "":
		return "0.0.0.0"
	case strings.EqualFold(strings.TrimSuffix(host, "."), "localhost"):
		return "127.0.0.1"
	}
	return host
}

// LoopbackHost reports whether host names this machine only: localhost or an address in
// 127.0.0.0/8 or ::1. An empty host, 0.0.0.0 and :: mean every interface; any other name
// could resolve anywhere. A server without credentials must not listen beyond loopback
// unless its user says so: anyone who reaches it can read every player's turns and answer
// them.
func LoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
