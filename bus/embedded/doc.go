// Package embedded runs a NATS server inside the process, from the nats-server/v2 package:
// the default bus of `arena tournament`, the server of `arena server`, and the server every
// test talks to, so that nothing needs a NATS installation. It is the leaf of package bus,
// apart so that package auth's tests can start a server without importing bus (which
// imports auth).
package embedded
