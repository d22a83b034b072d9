package main

import (
	"net"
	"strings"
)

// checkListen refuses to serve an unsecured NATS server beyond this machine. A server on
// addr (HOST:PORT, already checked) without credentials lets anyone who reaches it read
// every player's turn requests and answer them in its place, so an address other than
// loopback needs secured (--auth) or insecure (the user's explicit --insecure-listen).
// flag names the address's flag in the error, and secure the way to secure the server.
func checkListen(flag, addr string, secured, insecure bool, secure string) error {
	if addr == "" || secured || insecure {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil || loopbackHost(host) {
		return nil
	}
	return usagef("%s %s without credentials would let anyone on the network read any player's turns and answer them: use %s, a loopback address such as 127.0.0.1, or --insecure-listen to serve it without credentials anyway", flag, addr, secure)
}

// bindHost is the address the server binds for the host of a --listen that checkListen let
// through: "localhost" is bound as 127.0.0.1, so that what was checked as loopback is
// loopback whatever a resolver says of the name, and an empty host (":4222") as 0.0.0.0,
// every interface, as in Go's own listeners.
func bindHost(host string) string {
	switch {
	case host == "":
		return "0.0.0.0"
	case strings.EqualFold(strings.TrimSuffix(host, "."), "localhost"):
		return "127.0.0.1"
	}
	return host
}

// loopbackHost reports whether host names this machine only: localhost or an address in
// 127.0.0.0/8 or ::1. An empty host, 0.0.0.0 and :: mean every interface; any other name
// could resolve anywhere.
func loopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
