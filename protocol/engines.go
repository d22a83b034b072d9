package protocol

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Hosted engines: a player submits its engine as an archive (arena submit-engine), the
// referee stores it, and a host (arena host) builds it and runs it as the player. The
// player speaks to the referee on its own engines subjects; the host on the host API;
// the referee tells both of every change of a submission's state.
//
//	arena.v1.engines.submit.<name>   player -> referee, request: the archive's bytes, reply EngineReply (engine_submitted)
//	arena.v1.engines.status.<name>   player -> referee, request: EngineRequest (engine_status), reply EngineReply (engine_list)
//	arena.v1.player.<name>.engine    referee -> player and host: EngineEvent (engine_state), at every change of state
//	arena.v1.host.list               host -> referee, request: EngineRequest (host_list), reply EngineReply (engine_list)
//	arena.v1.host.fetch              host -> referee, request: EngineRequest (host_fetch), reply: the archive's bytes
//	arena.v1.host.report             host -> referee, request: EngineRequest (host_report), reply EngineReply (engine_list)
//	arena.v1.host.new                referee -> host: EngineEvent (engine_state, submitted) when a submission is stored
//
// A request the referee cannot serve is answered with an APIReply of type "error", the
// referee API's error shape.
const (
	// SubjectEngineSubmitAll and SubjectEngineStatusAll match every EngineSubmitSubject and
	// EngineStatusSubject; the referee subscribes to them.
	SubjectEngineSubmitAll = "arena.v1.engines.submit.*"
	SubjectEngineStatusAll = "arena.v1.engines.status.*"

	SubjectHostList   = "arena.v1.host.list"
	SubjectHostFetch  = "arena.v1.host.fetch"
	SubjectHostReport = "arena.v1.host.report"
	SubjectHostNew    = "arena.v1.host.new"
	// HostSubjects covers the host API and its notices.
	HostSubjects = "arena.v1.host.>"

	engineSubmitPrefix = "arena.v1.engines.submit."
	engineStatusPrefix = "arena.v1.engines.status."
)

// EngineSubmitSubject is where player name submits an engine archive. A secured bus lets a
// player publish only on its own, so the subject, not anything in the message, says whose
// engine it is.
func EngineSubmitSubject(name string) string { return engineSubmitPrefix + name }

// EngineStatusSubject is where player name asks for its submissions' states.
func EngineStatusSubject(name string) string { return engineStatusPrefix + name }

// EngineEventSubject is where the referee publishes the state changes of name's
// submissions: under the player's own subjects, which its credential may already read.
func EngineEventSubject(name string) string { return "arena.v1.player." + name + ".engine" }

// EngineSubjectName returns the player name of an EngineSubmitSubject (submit true) or an
// EngineStatusSubject, and whether subject is one with a valid name.
func EngineSubjectName(subject string, submit bool) (string, bool) {
	prefix := engineStatusPrefix
	if submit {
		prefix = engineSubmitPrefix
	}
	name, ok := strings.CutPrefix(subject, prefix)
	return name, ok && ValidName(name)
}

// NATS headers of the messages that carry an archive, whose body is the archive itself.
const (
	// HeaderArchiveName is the archive's file name, for people (engine.tar.gz), on a
	// submission; optional.
	HeaderArchiveName = "Arena-Archive-Name"
	// HeaderArchiveSHA256 is the SHA-256 of the archive, in lower-case hex, on the answer
	// to a host_fetch; an answer without it is an APIReply error instead.
	HeaderArchiveSHA256 = "Arena-Archive-Sha256"
)

// Limits of hosted engines.
const (
	// MaxArchiveSize is the largest engine archive, in bytes. The embedded NATS server's
	// max_payload is raised to carry it with its headers; see bus/embedded.
	MaxArchiveSize = 8 << 20
	// MaxArchiveName is the longest HeaderArchiveName, in bytes.
	MaxArchiveName = 255
	// MaxEngineLog is the most of a build or run log a state carries: its last bytes.
	MaxEngineLog = 4 << 10
)

// Submission states. A submission is submitted when stored; the host builds it (building,
// then built or build_failed), runs it as the player (running), and stops it when a newer
// version takes over or the host stops (stopped); an engine that keeps dying is run_failed.
const (
	EngineSubmitted   = "submitted"
	EngineBuilding    = "building"
	EngineBuildFailed = "build_failed"
	EngineBuilt       = "built"
	EngineRunning     = "running"
	EngineRunFailed   = "run_failed"
	EngineStopped     = "stopped"
)

// EngineStates lists the submission states in the order a submission usually goes through
// them.
var EngineStates = []string{EngineSubmitted, EngineBuilding, EngineBuildFailed, EngineBuilt, EngineRunning, EngineRunFailed, EngineStopped}

// ValidEngineState reports whether s is one of EngineStates.
func ValidEngineState(s string) bool {
	for _, st := range EngineStates {
		if s == st {
			return true
		}
	}
	return false
}

// Message types of hosted engines.
const (
	TypeEngineStatus    = "engine_status"    // request: a player's submissions
	TypeHostList        = "host_list"        // request: the submissions to host
	TypeHostFetch       = "host_fetch"       // request: one archive
	TypeHostReport      = "host_report"      // request: a submission's new state
	TypeEngineSubmitted = "engine_submitted" // reply to a submission
	TypeEngineList      = "engine_list"      // reply with submissions
	TypeEngineState     = "engine_state"     // event: a submission's state changed
)

// API error codes of the engines and host subjects, besides those of the referee API.
const (
	APIBadArchive  = "bad_archive"  // the archive or its manifest is refused; the message says why
	APITooLarge    = "too_large"    // the archive is larger than MaxArchiveSize
	APIRateLimited = "rate_limited" // too many submissions of one name lately
)

var (
	engineVersionRE = regexp.MustCompile(`^s[1-9][0-9]{0,8}$`)
	sha256RE        = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// EngineVersion is the version of a player's n-th submission: "s1", "s2", ... It is also
// the version its host announces in the player's hello.
func EngineVersion(n int) string { return "s" + strconv.Itoa(n) }

// ParseEngineVersion is the inverse of EngineVersion; it accepts "s1" to "s999999999".
func ParseEngineVersion(s string) (int, error) {
	if !engineVersionRE.MatchString(s) {
		return 0, fmt.Errorf("%w: version %q: want s and a number from 1 (s1, s2 and so on)", ErrMalformed, s)
	}
	n, _ := strconv.Atoi(s[1:])
	return n, nil
}

// CheckArchiveName returns an error unless s can be a HeaderArchiveName: 1 to
// MaxArchiveName bytes of UTF-8 text without control characters, slashes or backslashes
// (a file name, not a path).
func CheckArchiveName(s string) error {
	if s == "" || len(s) > MaxArchiveName || !utf8.ValidString(s) || strings.ContainsAny(s, `/\`) ||
		strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("%w: archive name %q: want a file name of 1-%d bytes, without slashes or control characters", ErrMalformed, s, MaxArchiveName)
	}
	return nil
}

// LogTail returns the last bytes of a build or run log as a state carries it: valid UTF-8
// (invalid bytes replaced), at most MaxEngineLog bytes, starting at a line when one starts
// near the cut.
func LogTail(log []byte) string {
	s := strings.ToValidUTF8(string(log), "\uFFFD")
	if len(s) <= MaxEngineLog {
		return s
	}
	cut := len(s) - MaxEngineLog
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	s = s[cut:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 256 {
		s = s[i+1:]
	}
	return s
}

// EngineRequest asks the referee about submitted engines: a player its own submissions
// (engine_status), a host what to run (host_list), an archive (host_fetch), or to record
// a new state (host_report). Which fields a request uses depends on its type.
type EngineRequest struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	// All asks host_list for every submission rather than the latest of each name.
	All bool `json:"all,omitempty"`
	// Name and Version name one submission (host_fetch, host_report).
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// State and Log are a host_report's new state and the tail of its log.
	State string `json:"state,omitempty"`
	Log   string `json:"log,omitempty"`
}

// EngineSubmission is one submission as the referee keeps it.
type EngineSubmission struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	State   string `json:"state"`
	Archive string `json:"archive,omitempty"` // the archive's file name, as submitted
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
	Created string `json:"created"` // RFC 3339
	Updated string `json:"updated"` // RFC 3339: when the state last changed
	// Log is the tail of the build log (build_failed, built) or of the engine's standard
	// error (run_failed), at most MaxEngineLog bytes.
	Log string `json:"log,omitempty"`
}

// EngineReply answers an EngineRequest or a submission: engine_submitted with the new
// submission's name, version, size and SHA-256, or engine_list with submissions, newest
// first. Errors are APIReply errors (see DecodeEngineReply).
type EngineReply struct {
	V           int                `json:"v"`
	Type        string             `json:"type"`
	Name        string             `json:"name,omitempty"`
	Version     string             `json:"version,omitempty"`
	Size        int64              `json:"size,omitempty"`
	SHA256      string             `json:"sha256,omitempty"`
	Submissions []EngineSubmission `json:"submissions,omitempty"`
}

// EngineEvent tells of a submission's new state, on EngineEventSubject and, for a new
// submission, on SubjectHostNew. Time is when the state changed (RFC 3339).
type EngineEvent struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Name    string `json:"name"`
	Version string `json:"version"`
	State   string `json:"state"`
	Log     string `json:"log,omitempty"`
	Time    string `json:"time"`
}

// ReplyError is the referee's refusal, an APIReply of type "error", met where another
// reply was expected.
type ReplyError struct {
	Code    string // an API error code: bad_request, not_found, bad_archive, ...
	Message string
}

func (e *ReplyError) Error() string { return e.Message + " (" + e.Code + ")" }

// checkEngineFields checks the fields messages of hosted engines share: each may be
// empty, and is valid when it is not.
func checkEngineFields(name, version, state, log string) error {
	if name != "" {
		if err := CheckName("name", name); err != nil {
			return err
		}
	}
	if version != "" {
		if _, err := ParseEngineVersion(version); err != nil {
			return err
		}
	}
	if state != "" && !ValidEngineState(state) {
		return fmt.Errorf("%w: state %q: want one of %s", ErrMalformed, state, strings.Join(EngineStates, ", "))
	}
	if len(log) > MaxEngineLog {
		return fmt.Errorf("%w: log of %d bytes, at most %d", ErrMalformed, len(log), MaxEngineLog)
	}
	return nil
}

// DecodeEngineRequest decodes a request and checks that its type is want and that it has
// what that type needs: a name and a version for host_fetch, and a state other than
// submitted for host_report as well.
func DecodeEngineRequest(data []byte, want string) (EngineRequest, error) {
	var m EngineRequest
	err := decodeStrictLimit(data, &m, MaxAPIMessageSize, func(h Header) error {
		switch {
		case h.Type != want:
			return fmt.Errorf("%w: type %q, want %q", ErrMalformed, h.Type, want)
		case want != TypeEngineStatus && want != TypeHostList && want != TypeHostFetch && want != TypeHostReport:
			return fmt.Errorf("%w: type %q is no engine request", ErrMalformed, h.Type)
		}
		return nil
	}, func() Header { return Header{m.V, m.Type} })
	if err != nil {
		return EngineRequest{}, err
	}
	if err := checkEngineFields(m.Name, m.Version, m.State, m.Log); err != nil {
		return EngineRequest{}, err
	}
	switch m.Type {
	case TypeHostFetch, TypeHostReport:
		if m.Name == "" || m.Version == "" {
			return EngineRequest{}, fmt.Errorf("%w: %s needs a name and a version", ErrMalformed, m.Type)
		}
		if m.Type == TypeHostReport && (m.State == "" || m.State == EngineSubmitted) {
			return EngineRequest{}, fmt.Errorf("%w: host_report needs a state, and a host cannot make a submission submitted again", ErrMalformed)
		}
	}
	return m, nil
}

// DecodeEngineReply decodes an answer of the referee to a submission or an EngineRequest:
// an EngineReply, or an APIReply error, which it returns as a *ReplyError.
func DecodeEngineReply(data []byte) (EngineReply, error) {
	var h Header
	if len(data) <= MaxAPIMessageSize && json.Unmarshal(data, &h) == nil && h.Type == TypeAPIError {
		r, err := DecodeAPIReply(data)
		if err != nil {
			return EngineReply{}, err
		}
		return EngineReply{}, &ReplyError{Code: r.Error, Message: r.Message}
	}
	var m EngineReply
	err := decodeStrictLimit(data, &m, MaxAPIMessageSize, func(h Header) error {
		if h.Type != TypeEngineSubmitted && h.Type != TypeEngineList {
			return fmt.Errorf("%w: type %q, want %s or %s", ErrMalformed, h.Type, TypeEngineSubmitted, TypeEngineList)
		}
		return nil
	}, func() Header { return Header{m.V, m.Type} })
	if err != nil {
		return EngineReply{}, err
	}
	if err := checkEngineFields(m.Name, m.Version, "", ""); err != nil {
		return EngineReply{}, err
	}
	if m.Size < 0 || m.SHA256 != "" && !sha256RE.MatchString(m.SHA256) {
		return EngineReply{}, fmt.Errorf("%w: a negative size, or a sha256 that is not 64 lower-case hex digits", ErrMalformed)
	}
	if m.Type == TypeEngineSubmitted && (m.Name == "" || m.Version == "" || m.SHA256 == "" || m.Size == 0) {
		return EngineReply{}, fmt.Errorf("%w: engine_submitted needs the name, version, size and sha256", ErrMalformed)
	}
	for _, s := range m.Submissions {
		if err := checkEngineFields(s.Name, s.Version, s.State, s.Log); err != nil {
			return EngineReply{}, err
		}
		if s.Name == "" || s.Version == "" || s.State == "" {
			return EngineReply{}, fmt.Errorf("%w: a submission needs a name, a version and a state", ErrMalformed)
		}
		if s.Size < 0 || !sha256RE.MatchString(s.SHA256) {
			return EngineReply{}, fmt.Errorf("%w: a submission's size is negative or its sha256 is not 64 lower-case hex digits", ErrMalformed)
		}
		if s.Archive != "" {
			if err := CheckArchiveName(s.Archive); err != nil {
				return EngineReply{}, err
			}
		}
	}
	return m, nil
}

// DecodeEngineEvent decodes and validates an EngineEvent.
func DecodeEngineEvent(data []byte) (EngineEvent, error) {
	var m EngineEvent
	if err := decodeStrict(data, &m, TypeEngineState, func() Header { return Header{m.V, m.Type} }); err != nil {
		return EngineEvent{}, err
	}
	if err := checkEngineFields(m.Name, m.Version, m.State, m.Log); err != nil {
		return EngineEvent{}, err
	}
	if m.Name == "" || m.Version == "" || m.State == "" {
		return EngineEvent{}, fmt.Errorf("%w: an engine_state needs a name, a version and a state", ErrMalformed)
	}
	return m, nil
}
