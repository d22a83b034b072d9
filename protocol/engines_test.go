package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

const sampleSHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func sampleEngineRequest(typ string) EngineRequest {
	r := EngineRequest{V: Version, Type: typ}
	switch typ {
	case TypeHostList:
		r.All = true
	case TypeHostFetch:
		r.Name, r.Version = "alice", "s3"
	case TypeHostReport:
		r.Name, r.Version, r.State, r.Log = "alice", "s3", EngineBuildFailed, "engine.c:3: error: expected ';'\n"
	}
	return r
}

func sampleEngineSubmitted() EngineReply {
	return EngineReply{V: Version, Type: TypeEngineSubmitted, Name: "alice", Version: "s3", Size: 2048, SHA256: sampleSHA}
}

func sampleEngineList() EngineReply {
	return EngineReply{V: Version, Type: TypeEngineList, Submissions: []EngineSubmission{
		{Name: "alice", Version: "s3", State: EngineBuildFailed, Archive: "engine.tar.gz", Size: 2048, SHA256: sampleSHA,
			Created: "2026-11-22T03:00:00Z", Updated: "2026-11-22T03:00:02Z", Log: "engine.c:3: error: expected ';'\n"},
		{Name: "alice", Version: "s2", State: EngineRunning, Size: 1990, SHA256: sampleSHA,
			Created: "2026-11-21T03:00:00Z", Updated: "2026-11-21T03:00:05Z"},
	}}
}

func sampleEngineEvent() EngineEvent {
	return EngineEvent{V: Version, Type: TypeEngineState, Name: "alice", Version: "s3", State: EngineBuilt, Log: "cc -O2 -o engine engine.c\n", Time: "2026-11-22T03:00:02Z"}
}

var engineRequestTypes = []string{TypeEngineStatus, TypeHostList, TypeHostFetch, TypeHostReport}

// decodeAnyEngineRequest accepts a request of any type, as the schema does; the referee
// checks the type against the subject it came on.
func decodeAnyEngineRequest(data []byte) (any, error) {
	var err error
	for _, typ := range engineRequestTypes {
		var m EngineRequest
		if m, err = DecodeEngineRequest(data, typ); err == nil {
			return m, nil
		}
	}
	return EngineRequest{}, err
}

func TestEngineRoundTrip(t *testing.T) {
	for _, typ := range engineRequestTypes {
		want := sampleEngineRequest(typ)
		got, err := DecodeEngineRequest(Encode(want), typ)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v", typ, got, err)
		}
	}
	for _, want := range []EngineReply{sampleEngineSubmitted(), sampleEngineList(), {V: Version, Type: TypeEngineList}} {
		got, err := DecodeEngineReply(Encode(want))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v", want.Type, got, err)
		}
	}
	ev, err := DecodeEngineEvent(Encode(sampleEngineEvent()))
	if err != nil || !reflect.DeepEqual(ev, sampleEngineEvent()) {
		t.Errorf("engine_state: %+v, %v", ev, err)
	}
}

func TestDecodeEngineRequest(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
		ok   bool
	}{
		{"status", `{"v":1,"type":"engine_status"}`, TypeEngineStatus, true},
		{"status on the list subject", `{"v":1,"type":"engine_status"}`, TypeHostList, false},
		{"list all", `{"v":1,"type":"host_list","all":true}`, TypeHostList, true},
		{"fetch", `{"v":1,"type":"host_fetch","name":"alice","version":"s12"}`, TypeHostFetch, true},
		{"fetch without a version", `{"v":1,"type":"host_fetch","name":"alice"}`, TypeHostFetch, false},
		{"fetch without a name", `{"v":1,"type":"host_fetch","version":"s1"}`, TypeHostFetch, false},
		{"fetch of version 0", `{"v":1,"type":"host_fetch","name":"alice","version":"s0"}`, TypeHostFetch, false},
		{"fetch of a version with a leading zero", `{"v":1,"type":"host_fetch","name":"alice","version":"s01"}`, TypeHostFetch, false},
		{"fetch of a bare number", `{"v":1,"type":"host_fetch","name":"alice","version":"3"}`, TypeHostFetch, false},
		{"fetch of a name with a dot", `{"v":1,"type":"host_fetch","name":"a.b","version":"s1"}`, TypeHostFetch, false},
		{"report", `{"v":1,"type":"host_report","name":"alice","version":"s1","state":"running"}`, TypeHostReport, true},
		{"report without a state", `{"v":1,"type":"host_report","name":"alice","version":"s1"}`, TypeHostReport, false},
		{"report of submitted", `{"v":1,"type":"host_report","name":"alice","version":"s1","state":"submitted"}`, TypeHostReport, false},
		{"report of an unknown state", `{"v":1,"type":"host_report","name":"alice","version":"s1","state":"exploded"}`, TypeHostReport, false},
		{"report with a log of 4096 bytes", `{"v":1,"type":"host_report","name":"a","version":"s1","state":"built","log":"` + strings.Repeat("x", MaxEngineLog) + `"}`, TypeHostReport, true},
		{"report with a log of 4097 bytes", `{"v":1,"type":"host_report","name":"a","version":"s1","state":"built","log":"` + strings.Repeat("x", MaxEngineLog+1) + `"}`, TypeHostReport, false},
		{"unknown field", `{"v":1,"type":"engine_status","player":"bob"}`, TypeEngineStatus, false},
		{"not an engine request type", `{"v":1,"type":"status"}`, TypeAPIStatus, false},
		{"version 2", `{"v":2,"type":"engine_status"}`, TypeEngineStatus, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeEngineRequest([]byte(tt.data), tt.want)
			if tt.ok != (err == nil) {
				t.Fatalf("DecodeEngineRequest = %+v, %v; want ok=%v", got, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
		})
	}
}

func TestDecodeEngineReply(t *testing.T) {
	refusal := Encode(APIError(APIBadArchive, "no arena.toml at the archive's root"))
	_, err := DecodeEngineReply(refusal)
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != APIBadArchive || !strings.Contains(err.Error(), "no arena.toml") {
		t.Fatalf("an error reply: %v, want a *ReplyError", err)
	}
	if errors.Is(err, ErrMalformed) {
		t.Fatal("a well-formed refusal is reported as malformed")
	}
	bad := []string{
		`{"v":1,"type":"error"}`,
		`{"v":1,"type":"ok"}`,
		`{"v":1,"type":"engine_submitted","name":"alice","version":"s1","size":0,"sha256":"` + sampleSHA + `"}`,
		`{"v":1,"type":"engine_submitted","name":"alice","version":"s1","size":10}`,
		`{"v":1,"type":"engine_submitted","name":"alice","version":"s1","size":10,"sha256":"` + strings.ToUpper(sampleSHA) + `"}`,
		`{"v":1,"type":"engine_list","submissions":[{"name":"alice","version":"s1","state":"lost","size":1,"sha256":"` + sampleSHA + `","created":"","updated":""}]}`,
		`{"v":1,"type":"engine_list","submissions":[{"name":"alice","version":"s1","state":"built","size":1,"sha256":"` + sampleSHA + `","created":"","updated":"","archive":"../x.tgz"}]}`,
		`{"v":1,"type":"engine_list","submissions":[{"name":"alice","version":"s1","state":"built","size":-1,"sha256":"` + sampleSHA + `","created":"","updated":""}]}`,
		`{"v":1,"type":"engine_list","submissions":[{"version":"s1","state":"built","size":1,"sha256":"` + sampleSHA + `","created":"","updated":""}]}`,
		`[]`,
	}
	for _, b := range bad {
		if _, err := DecodeEngineReply([]byte(b)); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeEngineReply(%s) = %v, want ErrMalformed", b, err)
		}
	}
}

func TestDecodeEngineEvent(t *testing.T) {
	for _, b := range []string{
		`{"v":1,"type":"engine_state","name":"alice","version":"s1","time":"t"}`,
		`{"v":1,"type":"engine_state","name":"alice","state":"built","time":"t"}`,
		`{"v":1,"type":"engine_state","version":"s1","state":"built","time":"t"}`,
		`{"v":1,"type":"engine_state","name":"al ice","version":"s1","state":"built","time":"t"}`,
		`{"v":1,"type":"engine_status","name":"alice","version":"s1","state":"built","time":"t"}`,
	} {
		if _, err := DecodeEngineEvent([]byte(b)); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeEngineEvent(%s) = %v, want ErrMalformed", b, err)
		}
	}
	big := sampleEngineEvent()
	big.Log = strings.Repeat("x", MaxEngineLog)
	if _, err := DecodeEngineEvent(Encode(big)); err != nil {
		t.Errorf("a log of MaxEngineLog bytes: %v", err)
	}
}

func TestEngineSubjects(t *testing.T) {
	if s := EngineSubmitSubject("alice"); s != "arena.v1.engines.submit.alice" {
		t.Errorf("submit subject %s", s)
	}
	if s := EngineEventSubject("alice"); s != "arena.v1.player.alice.engine" || !strings.HasPrefix(s, strings.TrimSuffix(TurnSubject("alice"), "turn")) {
		t.Errorf("event subject %s is not among the player's subjects", s)
	}
	for _, tt := range []struct {
		subject string
		submit  bool
		name    string
		ok      bool
	}{
		{EngineSubmitSubject("alice"), true, "alice", true},
		{EngineStatusSubject("alice"), false, "alice", true},
		{EngineStatusSubject("alice"), true, "", false},
		{"arena.v1.engines.submit.a.b", true, "a.b", false},
		{"arena.v1.engines.submit.", true, "", false},
	} {
		name, ok := EngineSubjectName(tt.subject, tt.submit)
		if ok != tt.ok || ok && name != tt.name {
			t.Errorf("EngineSubjectName(%s, %v) = %q, %v", tt.subject, tt.submit, name, ok)
		}
	}
}

func TestEngineVersion(t *testing.T) {
	for _, n := range []int{1, 9, 10, 999999999} {
		if got, err := ParseEngineVersion(EngineVersion(n)); err != nil || got != n {
			t.Errorf("ParseEngineVersion(EngineVersion(%d)) = %d, %v", n, got, err)
		}
	}
	for _, s := range []string{"", "s", "s0", "s01", "S1", "1", "s-1", "s1 ", "s1\n", "s1234567890"} {
		if _, err := ParseEngineVersion(s); err == nil {
			t.Errorf("ParseEngineVersion(%q) accepted", s)
		}
	}
}

func TestCheckArchiveName(t *testing.T) {
	for _, s := range []string{"engine.tar.gz", "my engine (v2).zip", "élève.zip", strings.Repeat("x", MaxArchiveName)} {
		if err := CheckArchiveName(s); err != nil {
			t.Errorf("CheckArchiveName(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "a/b.tgz", `a\b.zip`, "a\nb", "a\x00", "\xff.zip", strings.Repeat("x", MaxArchiveName+1)} {
		if err := CheckArchiveName(s); !errors.Is(err, ErrMalformed) {
			t.Errorf("CheckArchiveName(%q) = %v", s, err)
		}
	}
}

func TestLogTail(t *testing.T) {
	if got := LogTail([]byte("short\n")); got != "short\n" {
		t.Errorf("short log: %q", got)
	}
	var long bytes.Buffer
	for i := 0; long.Len() < 3*MaxEngineLog; i++ {
		long.WriteString("line of the compiler's complaints é\n")
	}
	long.WriteString("the last line\xff")
	got := LogTail(long.Bytes())
	if len(got) > MaxEngineLog || !utf8.ValidString(got) || !strings.HasSuffix(got, "the last line\uFFFD") || !strings.HasPrefix(got, "line of") {
		t.Errorf("tail of %d bytes, valid %v: %.60q ... %q", len(got), utf8.ValidString(got), got, got[max(0, len(got)-30):])
	}
	// A tail of runes that straddle the cut starts at a rune.
	runes := strings.Repeat("€", MaxEngineLog)
	if got := LogTail([]byte(runes)); len(got) > MaxEngineLog || !utf8.ValidString(got) {
		t.Errorf("tail of multi-byte runes: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	// What LogTail makes is always accepted as a state's log.
	ev := sampleEngineEvent()
	ev.Log = LogTail(long.Bytes())
	if _, err := DecodeEngineEvent(Encode(ev)); err != nil {
		t.Errorf("an event with LogTail's log: %v", err)
	}
}

func FuzzDecodeEngineRequest(f *testing.F) {
	for _, typ := range engineRequestTypes {
		seed(f, sampleEngineRequest(typ))
	}
	f.Add([]byte(`{"v":1,"type":"host_report","name":"a","version":"s1","state":"submitted"}`))
	f.Add([]byte(`{"v":1,"type":"host_fetch","name":"a","version":"s01"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range engineRequestTypes {
			fuzzRoundTrip(t, func(b []byte) (EngineRequest, error) { return DecodeEngineRequest(b, typ) }, data)
		}
	})
}

func FuzzDecodeEngineReply(f *testing.F) {
	seed(f, sampleEngineSubmitted(), sampleEngineList(), APIError(APIBadArchive, "no arena.toml"))
	f.Add([]byte(`{"v":1,"type":"engine_list","submissions":[{"name":"a","version":"s1","state":"built","size":1,"sha256":"` + sampleSHA + `","created":"","updated":"","log":"\u0000\ud800"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeEngineReply, data) })
}

func FuzzDecodeEngineEvent(f *testing.F) {
	seed(f, sampleEngineEvent())
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, DecodeEngineEvent, data) })
}
