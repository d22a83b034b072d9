// Package hosting is the referee's side of submitted engines: Engines checks and stores
// players' archives (arena submit-engine), answers their status requests and the host API
// (arena host), and publishes each change of a submission's state; ServeBus runs it on the
// referee daemon's bus. Its subpackages are the other side: archive (the archives and
// their manifests, shared by both sides), host (the host that builds and runs them) and
// sandbox (where they run).
package hosting
