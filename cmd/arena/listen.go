package main

import (
	"net"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
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
	if err != nil || bus.LoopbackHost(host) {
		return nil
	}
	return cli.Usagef("%s %s without credentials would let anyone on the network read any player's turns and answer them: use %s, a loopback address such as 127.0.0.1, or --insecure-listen to serve it without credentials anyway", flag, addr, secure)
}
