// Package agent is the interface between Arena's move-choosing programs and whatever
// serves them: the Agent interface and its optional extensions (Learner, GameChecker,
// Starter, Sequential, io.Closer), the Turn an agent is asked and the Decision it gives,
// the registry of built-in agents, Settings, the one way an agent reads its key=value
// options, and ParseSpecs, the player-list syntax (NAME=AGENT:key=value) that configures
// a built-in agent under a name of its own (Spec).
//
// It holds no transport: the NATS player runtime (package players) serves an Agent to a
// referee, the training loop (lab/train) calls one in process, and the
// conformance suite (agent/playertest) checks one, all through this package. An agent
// package imports this one and never the runtime, so that it builds without NATS.
//
// An agent is done when playertest passes for every game it registers for; see
// docs/contributing.md.
package agent
