// Package netlab builds a lab of hosts on this machine for tests: one network namespace a
// host, joined by a bridge, each host with an address of its own, so that a test can run
// servers and clients on separate hosts, kill them, and cut and restore their links. It
// needs root (CAP_NET_ADMIN and the right to mount, for `ip netns exec`) and iproute2's `ip`;
// Require skips a test where that is missing, or fails it when ARENA_REQUIRE_NETNS is set,
// as CI does.
//
// A test of a cluster across hosts:
//
//	lab := netlab.New(t, "n1", "n2", "n3", "worker")
//	c := lab.NATSCluster(t, lab.Hosts()[:3], netlab.ClusterOptions{})
//	w := lab.Host("worker").Command(ctx, arenaBinary, "host", "--nats", strings.Join(c.URLs(), ","))
//	// ... start w, run a tournament, then:
//	c.Kill(0); c.Restart(0); c.WaitReady(ctx)
//	lab.Host("n2").Cut(); lab.Host("n2").Restore()
//
// # Layout
//
// A lab has a number R from 1 to 254, unique on the machine while the lab lives, and the
// network 10.R.0.0/24:
//
//	anlbR            the bridge, in the test's (root) namespace, address 10.R.0.1
//	anlR-NAME        the network namespace of the host NAME (see `ip netns list`)
//	anlRvI           the bridge's end of host I's cable (a veth), in the root namespace
//	eth0             its other end, inside the host, address 10.R.0.(I+2)
//
// Hosts are numbered from 0 in the order New is given their names, so the first host is
// 10.R.0.2. The test process reaches every host through the bridge; hosts reach each other
// and the bridge's address, and nothing else: they have no default route. A route
// `unreachable 10.R.0.0/24` with a high metric stays in the root namespace after the lab
// is gone, so that a client still dialing a lab's address gets "no route to host" instead
// of sending its packets out through the machine's real network.
//
// R is taken under a lock file (/run/arena-netlab.lock) by creating the bridge, whose alias
// names the owning process (pid and start time), so that parallel tests and packages get
// labs of their own. Before taking a number, New removes the labs whose owner is gone (a
// test binary that crashed or timed out): it kills the processes left in their namespaces
// and deletes namespaces, veths and bridge.
//
// Bridged frames pass the root namespace's firewall when br_netfilter is loaded: on a
// machine whose FORWARD chain drops them (as Docker sets it), hosts reach the test process
// but not each other.
//
// # Processes
//
// Host.Command runs a program inside a host through `ip netns exec NS PROG ARGS...`, which
// enters the namespace and then executes PROG in its place (the process is PROG's, with
// `ip`'s pid); it is in a process group of its own. When the test ends, the lab kills the
// groups of the commands it made and every process still in its namespaces, then deletes
// them, the veths and the bridge.
//
// # Failures
//
// Host.Cut takes the bridge's end of a host's cable down: inside the host the link loses
// its carrier, as when a cable is pulled, and nothing passes until Host.Restore. Host.Partition
// takes the bridge's end off the bridge instead: the host sees no change at all (its link
// stays up) but its frames reach no one until Host.Heal. Neither closes a connection: TCP
// on both sides finds out only through its own timeouts, or keeps going once the link is
// back (Debian's nats-server 2.9.10, writing to a cut peer, may keep its route to it for as
// long as the cut lasts). Killing and restarting a server is the Cluster's (NATSCluster:
// Debian's nats-server, one a host, in a JetStream cluster).
package netlab
