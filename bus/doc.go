// Package bus is how an arena process reaches NATS: Connect dials a server with the
// arena's reconnect and logging policy; Open reaches the bus a command's flags describe, an
// external server or one embedded in the process (package bus/embedded), and keeps a
// secured embedded server's users in step with the credentials stored in the database;
// OpenWithStore does so together with the database, locked so that two referees never play
// from one file.
//
// Everything that talks to NATS on the referee's side (the referee, the daemon, the web
// view, the engine service, built-in players) connects through this package, so that one
// policy decides how connections reconnect and report their errors.
package bus
