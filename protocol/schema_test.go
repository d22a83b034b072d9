package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/arenaref/arena/internal/strictjson"
)

// These tests keep protocol/schema/v1.json (SchemaJSON) in step with the Go types and
// decoders of this package, in three ways:
//
//   - structure: every message's schema has exactly the JSON fields of its Go struct, with
//     matching types, nested structs included, and requires exactly the fields that Encode
//     always writes (those without omitempty), less the exceptions in optionalByDesign;
//   - examples: the labelled examples of docs/protocol.md and the encodings of the sample
//     messages validate, and a table of broken messages is rejected by both the schema and
//     the decoders;
//   - agreement: on a corpus of valid messages and systematic mutations of them (and the
//     fuzzers' seeds), the schema and the decoder reach the same verdict, except in the
//     documented ways listed below.
//
// The decoders are stricter than the schema where a JSON Schema cannot see (schemaBlindSpot):
// the size of the message in bytes, a field given twice, nesting depth, how a number is
// written (5.0 is an integer to a schema, not to encoding/json), lengths in bytes rather than
// characters, and a notice's seat being an index into its players. The decoders are more
// lenient in one way: like encoding/json, they read a missing field or a null as the zero
// value, and reject it only where the zero value fails a check (an empty name, say). The
// schema describes what a sender writes, so it requires every field Encode always writes
// and allows null only where a field may be left out.

const schemaID = "urn:arena:protocol:v1"

// schemaMessages maps each message's entry under $defs to its Go type. The nested types
// (clock, info, standings and so on) are found through the messages' properties.
var schemaMessages = []struct {
	def string
	typ reflect.Type
}{
	{"hello", reflect.TypeFor[Hello]()},
	{"welcome", reflect.TypeFor[Welcome]()},
	{"rollcall", reflect.TypeFor[RollCall]()},
	{"turn_request", reflect.TypeFor[TurnRequest]()},
	{"turn_reply", reflect.TypeFor[TurnReply]()},
	{"game_notice", reflect.TypeFor[GameNotice]()},
	{"game_event", reflect.TypeFor[GameEvent]()},
	{"api_request", reflect.TypeFor[APIRequest]()},
	{"api_reply", reflect.TypeFor[APIReply]()},
	{"engine_request", reflect.TypeFor[EngineRequest]()},
	{"engine_reply", reflect.TypeFor[EngineReply]()},
	{"engine_event", reflect.TypeFor[EngineEvent]()},
}

// optionalByDesign lists the fields that Encode always writes but the schema does not
// require, and why. (The decoders accept many more missing fields; see above.)
var optionalByDesign = map[string]string{
	"rollcall.referee": "docs/protocol.md says a rollcall's referee may be left out",
}

// nameFields are the fields the decoders check with CheckName; the schema gives them the
// name pattern. Other name-like fields (a reply's game_id, players) are not checked by the
// decoders, so the schema does not check them either.
var nameFields = []string{"hello.name", "turn_request.game_id", "game_notice.game_id", "game_event.game_id", "engine_submission.name", "engine_event.name"}

// schemaDefFor maps the labels of docs/protocol.md and of decoders() to schema entries.
func schemaDefFor(label string) string {
	switch {
	case strings.HasPrefix(label, "game_start"), strings.HasPrefix(label, "game_end"):
		return "game_notice"
	case strings.HasPrefix(label, "event_"):
		return "game_event"
	case label == TypeEngineStatus || strings.HasPrefix(label, "host_"):
		return "engine_request"
	case label == TypeEngineSubmitted || label == TypeEngineList:
		return "engine_reply"
	case label == TypeEngineState:
		return "engine_event"
	}
	return label
}

// compiledSchemas is SchemaJSON compiled once: the top level and each entry of $defs.
type compiledSchemas struct {
	top  *jsonschema.Schema
	defs map[string]*jsonschema.Schema
}

var (
	schemaOnce sync.Once
	schemaSet  *compiledSchemas
	schemaErr  error
)

func schemas(t testing.TB) *compiledSchemas {
	t.Helper()
	schemaOnce.Do(func() { schemaSet, schemaErr = compileSchemas() })
	if schemaErr != nil {
		t.Fatalf("schema: %v", schemaErr)
	}
	return schemaSet
}

func compileSchemas() (*compiledSchemas, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(SchemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaID, doc); err != nil {
		return nil, err
	}
	// Compiling checks the schema against the draft 2020-12 meta-schema as well.
	s := &compiledSchemas{defs: map[string]*jsonschema.Schema{}}
	if s.top, err = c.Compile(schemaID); err != nil {
		return nil, err
	}
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	for name := range defs {
		if s.defs[name], err = c.Compile(schemaID + "#/$defs/" + name); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// validate checks data against one entry of $defs, or the top level when def is "".
// Data that is not a single JSON value is invalid.
func (s *compiledSchemas) validate(def string, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	sch := s.top
	if def != "" {
		sch = s.defs[def]
		if sch == nil {
			return fmt.Errorf("schema has no $defs/%s", def)
		}
	}
	return sch.Validate(inst)
}

// schemaDoc is SchemaJSON as plain Go values, for looking at its structure.
func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(SchemaJSON), &doc); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	return doc
}

func TestSchemaFileIsEmbedded(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("schema", "v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != SchemaJSON {
		t.Fatal("SchemaJSON differs from schema/v1.json")
	}
	s := schemas(t)
	for _, m := range schemaMessages {
		if s.defs[m.def] == nil {
			t.Errorf("schema has no $defs/%s", m.def)
		}
	}
	doc := schemaDoc(t)
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || doc["$id"] != schemaID {
		t.Errorf("$schema %v, $id %v", doc["$schema"], doc["$id"])
	}
	// The top level is a oneOf of exactly the messages.
	var tops []string
	for _, alt := range doc["oneOf"].([]any) {
		tops = append(tops, strings.TrimPrefix(alt.(map[string]any)["$ref"].(string), "#/$defs/"))
	}
	var want []string
	for _, m := range schemaMessages {
		want = append(want, m.def)
	}
	if !slices.Equal(tops, want) {
		t.Errorf("top-level oneOf %v, want %v", tops, want)
	}
}

// TestSchemaTypeValues checks each message's "v" and "type" against the Go constants.
func TestSchemaTypeValues(t *testing.T) {
	want := map[string][]string{
		"hello":          {TypeHello},
		"welcome":        {TypeWelcome},
		"rollcall":       {TypeRollCall},
		"turn_request":   {TypeTurn},
		"turn_reply":     {TypeMove},
		"game_notice":    {TypeGameStart, TypeGameEnd},
		"game_event":     {TypeEventStart, TypeEventMove, TypeEventEnd},
		"api_request":    {TypeAPICreate, TypeAPIStatus, TypeAPICancel, TypeAPIPlayers},
		"api_reply":      {TypeAPIOK, TypeAPIError},
		"engine_request": {TypeEngineStatus, TypeHostList, TypeHostFetch, TypeHostReport},
		"engine_reply":   {TypeEngineSubmitted, TypeEngineList},
		"engine_event":   {TypeEngineState},
	}
	defs := schemaDoc(t)["$defs"].(map[string]any)
	for _, m := range schemaMessages {
		props := defs[m.def].(map[string]any)["properties"].(map[string]any)
		if v := props["v"].(map[string]any)["const"]; v != float64(Version) {
			t.Errorf("%s: v is %v, want const %d", m.def, v, Version)
		}
		typ := props["type"].(map[string]any)
		var got []string
		if c, ok := typ["const"].(string); ok {
			got = append(got, c)
		}
		enum, _ := typ["enum"].([]any)
		for _, e := range enum {
			got = append(got, e.(string))
		}
		if !slices.Equal(got, want[m.def]) {
			t.Errorf("%s: type values %q, want %q", m.def, got, want[m.def])
		}
	}
}

// goField is one field of a struct as encoding/json sees it.
type goField struct {
	name      string
	omitempty bool
	typ       reflect.Type
}

func goFields(t reflect.Type) []goField {
	var out []goField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, goField{name, slices.Contains(strings.Split(opts, ","), "omitempty"), f.Type})
	}
	return out
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// jsonTypeOf is the JSON Schema type encoding/json gives a Go type, "" for any value.
func jsonTypeOf(t reflect.Type) string {
	if t == rawMessageType {
		return ""
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonTypeOf(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return "unsupported " + t.String()
}

// schemaTypes returns the JSON types a property allows, following a $ref and the branches
// of an anyOf, and the name of the $defs entry an object property refers to, if any.
func schemaTypes(defs map[string]any, node map[string]any) (types map[string]bool, ref string) {
	types = map[string]bool{}
	if ty, ok := node["type"]; ok {
		switch ty := ty.(type) {
		case string:
			types[ty] = true
		case []any:
			for _, x := range ty {
				types[x.(string)] = true
			}
		}
		return types, ref
	}
	if r, ok := node["$ref"].(string); ok {
		name := strings.TrimPrefix(r, "#/$defs/")
		target, _ := defs[name].(map[string]any)
		types, _ = schemaTypes(defs, target)
		if types["object"] {
			ref = name
		}
		return types, ref
	}
	if alts, ok := node["anyOf"].([]any); ok {
		for _, alt := range alts {
			ts, r := schemaTypes(defs, alt.(map[string]any))
			maps.Copy(types, ts)
			if r != "" {
				ref = r
			}
		}
	}
	return types, ref
}

// structChecker compares schema entries with Go structs, remembering which entry stands
// for which type.
type structChecker struct {
	defs map[string]any
	seen map[string]reflect.Type
}

func TestSchemaMatchesGoTypes(t *testing.T) {
	doc := schemaDoc(t)
	c := &structChecker{defs: doc["$defs"].(map[string]any), seen: map[string]reflect.Type{}}
	for _, m := range schemaMessages {
		t.Run(m.def, func(t *testing.T) { c.object(t, m.def, m.typ) })
	}
	// Every entry stands for a Go type, but for the shared name string.
	for name := range c.defs {
		if _, ok := c.seen[name]; !ok && name != "name" {
			t.Errorf("$defs/%s describes no Go type", name)
		}
	}
	for path := range optionalByDesign {
		def, field, _ := strings.Cut(path, ".")
		if _, ok := c.defs[def].(map[string]any)["properties"].(map[string]any)[field]; !ok {
			t.Errorf("optionalByDesign names %s, which the schema does not have", path)
		}
	}
}

// object checks that $defs/def describes the struct type typ.
func (c *structChecker) object(t *testing.T, def string, typ reflect.Type) {
	t.Helper()
	if prev, ok := c.seen[def]; ok {
		if prev != typ {
			t.Errorf("$defs/%s stands for both %v and %v", def, prev, typ)
		}
		return
	}
	c.seen[def] = typ
	node, ok := c.defs[def].(map[string]any)
	if !ok {
		t.Errorf("schema has no $defs/%s for %v", def, typ)
		return
	}
	if node["type"] != "object" || node["additionalProperties"] != false {
		t.Errorf("$defs/%s: want type object and additionalProperties false (decoders reject unknown fields)", def)
	}
	if d, _ := node["description"].(string); d == "" {
		t.Errorf("$defs/%s has no description", def)
	}
	props, _ := node["properties"].(map[string]any)
	required := map[string]bool{}
	reqs, _ := node["required"].([]any) // info, all optional, has none
	for _, r := range reqs {
		required[r.(string)] = true
	}

	fields := goFields(typ)
	goNames := map[string]bool{}
	for _, f := range fields {
		goNames[f.name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if !goNames[name] {
			t.Errorf("%s.%s is in the schema but not in %v", def, name, typ)
		}
	}
	for name := range required {
		if !goNames[name] {
			t.Errorf("%s requires %s, which %v does not have", def, name, typ)
		}
	}
	for _, f := range fields {
		path := def + "." + f.name
		prop, ok := props[f.name].(map[string]any)
		if !ok {
			t.Errorf("%s: field %s of %v is not in the schema", def, f.name, typ)
			continue
		}
		if d, _ := prop["description"].(string); d == "" {
			t.Errorf("%s has no description", path)
		}
		wantReq := !f.omitempty && optionalByDesign[path] == ""
		if required[f.name] != wantReq {
			t.Errorf("%s: required %v, want %v (omitempty %v)", path, required[f.name], wantReq, f.omitempty)
		}
		c.value(t, path, prop, f.typ, !required[f.name])
	}
}

// value checks that a property's schema fits the Go type of its field; optional says
// whether the field may be left out, and so also be null.
func (c *structChecker) value(t *testing.T, path string, node map[string]any, typ reflect.Type, optional bool) {
	t.Helper()
	want := jsonTypeOf(typ)
	if want == "" { // json.RawMessage: any JSON value
		for _, k := range []string{"type", "$ref", "anyOf", "oneOf", "const", "enum"} {
			if _, ok := node[k]; ok {
				t.Errorf("%s is free-form JSON in Go, but the schema constrains it with %s", path, k)
			}
		}
		return
	}
	types, ref := schemaTypes(c.defs, node)
	if types["null"] != optional {
		t.Errorf("%s: null allowed %v, want %v (null exactly where a field may be left out)", path, types["null"], optional)
	}
	delete(types, "null")
	if got := slices.Sorted(maps.Keys(types)); !slices.Equal(got, []string{want}) {
		t.Errorf("%s: schema type %v, Go type %v wants %q", path, got, typ, want)
		return
	}
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Slice:
		items, ok := node["items"].(map[string]any)
		if !ok {
			t.Errorf("%s: array without items", path)
			return
		}
		c.value(t, path+"[]", items, typ.Elem(), false)
	case reflect.Map:
		if typ.Key().Kind() != reflect.String {
			t.Errorf("%s: map key %v", path, typ.Key())
		}
		vals, ok := node["additionalProperties"].(map[string]any)
		if !ok {
			t.Errorf("%s: map without a schema for its values", path)
			return
		}
		c.value(t, path+"{}", vals, typ.Elem(), false)
	case reflect.Struct:
		if ref == "" {
			t.Errorf("%s: %v is not described by a $defs entry", path, typ)
			return
		}
		c.object(t, ref, typ)
	}
}

// TestSchemaRequiredCoversDecoders removes each field of each sample in turn: whenever a
// decoder then rejects the message, the schema must reject it too, by requiring the field
// (or, for an error reply's code, requiring it in error replies). The converse does not
// hold, by design: see the comment at the top.
func TestSchemaRequiredCoversDecoders(t *testing.T) {
	s := schemas(t)
	for _, sm := range schemaSamples() {
		var m map[string]any
		if err := json.Unmarshal(Encode(sm.msg), &m); err != nil {
			t.Fatal(err)
		}
		decode := wireKindFor(sm.def).decode
		var lenient []string
		for _, key := range slices.Sorted(maps.Keys(m)) {
			data := edit(t, sm.msg, func(m map[string]any) { delete(m, key) })
			_, derr := decode(data)
			serr := s.validate(sm.def, data)
			switch {
			case derr != nil && serr == nil:
				t.Errorf("%s: the decoder rejects a message without %s, but the schema accepts it", sm.name, key)
			case derr == nil && serr != nil:
				lenient = append(lenient, key)
			}
		}
		if len(lenient) > 0 {
			t.Logf("%s: the decoder reads these fields as zero when missing: %s", sm.name, strings.Join(lenient, ", "))
		}
	}
}

func TestSchemaNamePattern(t *testing.T) {
	doc := schemaDoc(t)
	defs := doc["$defs"].(map[string]any)
	name := defs["name"].(map[string]any)
	if name["pattern"] != nameRE.String() {
		t.Errorf("name pattern %v, want the decoders' %s", name["pattern"], nameRE)
	}
	for _, path := range nameFields {
		def, field, _ := strings.Cut(path, ".")
		prop := defs[def].(map[string]any)["properties"].(map[string]any)[field].(map[string]any)
		if prop["$ref"] != "#/$defs/name" {
			t.Errorf("%s does not refer to #/$defs/name", path)
		}
	}
	s := schemas(t)
	cases := []string{"a", "alice", "Bob-2", "x_y", strings.Repeat("z", 64), "alice\n", "\nalice", "al\nice"}
	for _, b := range badNames {
		cases = append(cases, b.s)
	}
	for _, n := range cases {
		data, _ := json.Marshal(n)
		if got := s.validate("name", data) == nil; got != ValidName(n) {
			t.Errorf("name %q: schema says valid=%v, ValidName says %v", n, got, ValidName(n))
		}
	}
}

// schemaSample is a valid message and the schema entry it belongs to.
type schemaSample struct {
	name string
	def  string
	msg  any
}

// schemaSamples are the sample messages of protocol_test.go and api_test.go, with a few
// more that leave optional fields out.
func schemaSamples() []schemaSample {
	var out []schemaSample
	for _, d := range decoders() {
		out = append(out, schemaSample{d.name, schemaDefFor(d.name), d.sample})
	}
	withObs := sampleTurnRequest()
	withObs.Observation = json.RawMessage(`{"mine":["C","D"],"payoffs":[3,0]}`)
	perMove := sampleTurnRequest()
	perMove.Clock.PerMove = true
	periods := sampleTurnRequest()
	periods.Clock.MovesToGo = 40
	margin := sampleTurnRequest()
	margin.Clock.MarginMS = 50
	ponder := sampleTurnRequest()
	ponder.Clock.Ponder = true
	out = append(out,
		schemaSample{"hello_minimal", "hello", Hello{V: Version, Type: TypeHello, Name: "p"}},
		schemaSample{"rollcall_minimal", "rollcall", RollCall{V: Version, Type: TypeRollCall}},
		schemaSample{"turn_request_observation", "turn_request", withObs},
		schemaSample{"turn_request_per_move", "turn_request", perMove},
		schemaSample{"turn_request_moves_to_go", "turn_request", periods},
		schemaSample{"turn_request_margin", "turn_request", margin},
		schemaSample{"turn_request_ponder", "turn_request", ponder},
		schemaSample{"turn_reply_resign", "turn_reply", TurnReply{V: Version, Type: TypeMove, GameID: "g", Ply: 7, Move: Resign}},
		schemaSample{"turn_reply_crashed", "turn_reply", TurnReply{V: Version, Type: TypeMove, GameID: "g", Ply: 7, Move: Resign, Crashed: "exit status 3"}},
		schemaSample{"api_create", "api_request", APIRequest{V: Version, Type: TypeAPICreate, Config: "game = \"othello\"\n", Source: "t.toml", Openings: "d3 c5\n"}},
		schemaSample{"api_status", "api_request", APIRequest{V: Version, Type: TypeAPIStatus}},
		schemaSample{"api_cancel", "api_request", APIRequest{V: Version, Type: TypeAPICancel, Tournament: 4}},
		schemaSample{"api_players", "api_request", APIRequest{V: Version, Type: TypeAPIPlayers}},
		schemaSample{"api_ok_create", "api_reply", APIReply{V: Version, Type: TypeAPIOK, Tournament: 3, Games: 12}},
		schemaSample{"api_error", "api_reply", APIError(APIBadConfig, "line %d: unknown key %q", 4, "roundz")},
		schemaSample{"api_ok_status", "api_reply", APIReply{V: Version, Type: TypeAPIOK, Tournaments: []TournamentStatus{{
			ID: 1, Name: "spring", Game: "othello", Format: "round-robin", Status: "running", Played: 3, Total: 12, Created: "2026-11-22T03:00:00Z", Problem: "no worker runs",
			Rows: []StandingsRow{{Rank: 1, Player: "hp1", Games: 2, Wins: 2, Score: 2, Pct: 100, Elo: 1516, Ends: map[string]int{"normal": 1}, WonBy: map[string]int{"time_forfeit": 1}}}}}}},
		schemaSample{TypeEngineStatus, "engine_request", sampleEngineRequest(TypeEngineStatus)},
		schemaSample{TypeHostList, "engine_request", sampleEngineRequest(TypeHostList)},
		schemaSample{TypeHostFetch, "engine_request", sampleEngineRequest(TypeHostFetch)},
		schemaSample{TypeHostReport, "engine_request", sampleEngineRequest(TypeHostReport)},
		schemaSample{TypeEngineSubmitted, "engine_reply", sampleEngineSubmitted()},
		schemaSample{TypeEngineList, "engine_reply", sampleEngineList()},
		schemaSample{"engine_list_empty", "engine_reply", EngineReply{V: Version, Type: TypeEngineList}},
		schemaSample{TypeEngineState, "engine_event", sampleEngineEvent()},
		schemaSample{"api_ok_players", "api_reply", APIReply{V: Version, Type: TypeAPIOK, Players: []PlayerStatus{{
			Name: "alice", Agent: "hp1", Version: "1", Games: []string{"othello"}, LastSeen: "2026-11-22T03:00:00Z", Connected: true}}}},
	)
	return out
}

func TestSchemaValidatesDocExamples(t *testing.T) {
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := docBlocks(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", protocolDoc, err)
	}
	s := schemas(t)
	n := 0
	for _, b := range blocks {
		if b.label == "none" {
			continue
		}
		n++
		t.Run(fmt.Sprintf("line%d_%s", b.line, b.label), func(t *testing.T) {
			data := []byte(b.text)
			if err := s.validate(schemaDefFor(b.label), data); err != nil {
				t.Fatalf("does not validate against $defs/%s: %v\n%s", schemaDefFor(b.label), err, b.text)
			}
			if err := s.validate("", data); err != nil {
				t.Fatalf("does not validate against the top level (exactly one message): %v", err)
			}
		})
	}
	if n == 0 {
		t.Fatalf("%s has no labelled examples", protocolDoc)
	}
}

func TestSchemaValidatesEncodedSamples(t *testing.T) {
	s := schemas(t)
	for _, sm := range schemaSamples() {
		t.Run(sm.name, func(t *testing.T) {
			data := Encode(sm.msg)
			if _, err := wireKindFor(sm.def).decode(data); err != nil {
				t.Fatalf("the sample does not decode: %v", err)
			}
			if err := s.validate(sm.def, data); err != nil {
				t.Fatalf("%s does not validate against $defs/%s: %v", data, sm.def, err)
			}
			if err := s.validate("", data); err != nil {
				t.Fatalf("%s does not validate against the top level: %v", data, err)
			}
		})
	}
}

// invalidMessages are messages that both the schema and the decoders must reject.
func invalidMessages(t testing.TB) []struct {
	name string
	def  string
	data []byte
} {
	type bad = struct {
		name string
		def  string
		data []byte
	}
	var out []bad
	del := func(key string) func(map[string]any) { return func(m map[string]any) { delete(m, key) } }
	rename := func(from, to string) func(map[string]any) {
		return func(m map[string]any) { m[to] = m[from]; delete(m, from) }
	}
	for _, sm := range schemaSamples() {
		for _, c := range []struct {
			name string
			f    func(map[string]any)
		}{
			{"unknown field", set("extra", true)},
			{"unknown null field", set("x", nil)},
			{"version 0", set("v", 0)},
			{"version 2", set("v", 2)},
			{"version as string", set("v", "1")},
			{"version null", set("v", nil)},
			{"version missing", del("v")},
			{"wrong type", set("type", "bogus")},
			{"type as number", set("type", 1)},
			{"type missing", del("type")},
			{"v in capitals", rename("v", "V")},
			{"type in capitals", rename("type", "Type")},
		} {
			out = append(out, bad{sm.name + "/" + c.name, sm.def, edit(t, sm.msg, c.f)})
		}
	}
	long := strings.Repeat("x", 65)
	add := func(name, def string, msg any, f func(map[string]any)) {
		out = append(out, bad{name, def, edit(t, msg, f)})
	}
	for _, b := range badNames {
		add("hello/name "+b.name, "hello", sampleHello(), set("name", b.s))
		add("turn_request/game_id "+b.name, "turn_request", sampleTurnRequest(), set("game_id", b.s))
		add("game_start/game_id "+b.name, "game_notice", sampleGameStart(), set("game_id", b.s))
		add("event_move/game_id "+b.name, "game_event", sampleEvent(TypeEventMove), set("game_id", b.s))
	}
	add("hello/name with a final newline", "hello", sampleHello(), set("name", "alice\n"))
	add("hello/name missing", "hello", sampleHello(), del("name"))
	add("hello/name as number", "hello", sampleHello(), set("name", 7))
	add("hello/long agent", "hello", sampleHello(), set("agent", long))
	add("hello/long version", "hello", sampleHello(), set("version", long))
	add("hello/65 games", "hello", sampleHello(), set("games", make([]string, 65)))
	add("hello/games as string", "hello", sampleHello(), set("games", "othello"))
	add("welcome/zero heartbeat", "welcome", sampleWelcome(), set("heartbeat_ms", 0))
	add("welcome/negative heartbeat", "welcome", sampleWelcome(), set("heartbeat_ms", -5))
	add("welcome/fractional heartbeat", "welcome", sampleWelcome(), set("heartbeat_ms", 1.5))
	add("welcome/heartbeat as string", "welcome", sampleWelcome(), set("heartbeat_ms", "5000"))
	add("welcome/heartbeat missing", "welcome", sampleWelcome(), del("heartbeat_ms"))
	add("rollcall/referee as number", "rollcall", sampleRollCall(), set("referee", 1))
	add("turn_request/negative seat", "turn_request", sampleTurnRequest(), set("seat", -1))
	add("turn_request/negative ply", "turn_request", sampleTurnRequest(), set("ply", -1))
	add("turn_request/seat as string", "turn_request", sampleTurnRequest(), set("seat", "1"))
	add("turn_request/ply as bool", "turn_request", sampleTurnRequest(), set("ply", true))
	add("turn_request/empty game", "turn_request", sampleTurnRequest(), set("game", ""))
	add("turn_request/game missing", "turn_request", sampleTurnRequest(), del("game"))
	add("turn_request/legal as string", "turn_request", sampleTurnRequest(), set("legal", "d3"))
	add("turn_request/legal of numbers", "turn_request", sampleTurnRequest(), set("legal", []int{1, 2}))
	add("turn_request/clock as array", "turn_request", sampleTurnRequest(), set("clock", []int{1}))
	for _, f := range []string{"move_ms", "remaining_ms", "increment_ms", "moves_to_go", "margin_ms"} {
		clock := map[string]any{"move_ms": 1, "remaining_ms": 1, "increment_ms": 0}
		clock[f] = -1
		add("turn_request/negative "+f, "turn_request", sampleTurnRequest(), set("clock", clock))
	}
	add("turn_request/unknown clock field", "turn_request", sampleTurnRequest(), set("clock", map[string]any{"move_ms": 1, "remaining_ms": 1, "increment_ms": 0, "byoyomi_ms": 1}))
	add("turn_request/clock field in capitals", "turn_request", sampleTurnRequest(), set("clock", map[string]any{"Move_MS": 1, "remaining_ms": 1, "increment_ms": 0}))
	add("turn_request/per_move as string", "turn_request", sampleTurnRequest(), set("clock", map[string]any{"move_ms": 1, "remaining_ms": 1, "increment_ms": 0, "per_move": "yes"}))
	add("turn_reply/empty move", "turn_reply", sampleTurnReply(), set("move", ""))
	add("turn_reply/long move", "turn_reply", sampleTurnReply(), set("move", long))
	add("turn_reply/move missing", "turn_reply", sampleTurnReply(), del("move"))
	add("turn_reply/move as number", "turn_reply", sampleTurnReply(), set("move", 19))
	add("turn_reply/move null", "turn_reply", sampleTurnReply(), set("move", nil))
	add("turn_reply/ply as string", "turn_reply", sampleTurnReply(), set("ply", "1"))
	add("turn_reply/negative depth", "turn_reply", sampleTurnReply(), set("info", map[string]any{"depth": -1}))
	add("turn_reply/negative nodes", "turn_reply", sampleTurnReply(), set("info", map[string]any{"nodes": -1}))
	add("turn_reply/long pv", "turn_reply", sampleTurnReply(), set("info", map[string]any{"pv": make([]string, 257)}))
	add("turn_reply/long note", "turn_reply", sampleTurnReply(), set("info", map[string]any{"note": strings.Repeat("x", 257)}))
	add("turn_reply/unknown info field", "turn_reply", sampleTurnReply(), set("info", map[string]any{"seldepth": 3}))
	add("turn_reply/info field in capitals", "turn_reply", sampleTurnReply(), set("info", map[string]any{"Depth": 3}))
	add("turn_reply/score as string", "turn_reply", sampleTurnReply(), set("info", map[string]any{"score": "+1"}))
	add("turn_reply/info as array", "turn_reply", sampleTurnReply(), set("info", []any{}))
	add("game_notice/negative seat", "game_notice", sampleGameStart(), set("seat", -1))
	add("game_notice/no players", "game_notice", sampleGameEnd(), set("players", []string{}))
	add("game_notice/players null", "game_notice", sampleGameEnd(), set("players", nil))
	add("game_notice/event type", "game_notice", sampleGameStart(), set("type", TypeEventStart))
	add("game_notice/returns of strings", "game_notice", sampleGameEnd(), set("returns", []string{"1"}))
	add("game_event/negative ply", "game_event", sampleEvent(TypeEventMove), set("ply", -1))
	add("game_event/negative seat", "game_event", sampleEvent(TypeEventMove), set("seat", -1))
	add("game_event/notice type", "game_event", sampleEvent(TypeEventEnd), set("type", TypeGameEnd))
	add("game_event/move as number", "game_event", sampleEvent(TypeEventMove), set("move", 3))
	apiCancel := APIRequest{V: Version, Type: TypeAPICancel, Tournament: 4}
	add("api_request/negative tournament", "api_request", apiCancel, set("tournament", -4))
	add("api_request/tournament as string", "api_request", apiCancel, set("tournament", "4"))
	add("api_request/reply type", "api_request", apiCancel, set("type", TypeAPIOK))
	add("api_reply/error without code", "api_reply", APIError(APINotFound, "x"), del("error"))
	add("api_reply/error with empty code", "api_reply", APIError(APINotFound, "x"), set("error", ""))
	add("api_reply/error with null code", "api_reply", APIError(APINotFound, "x"), set("error", nil))
	add("api_reply/games as string", "api_reply", APIReply{V: Version, Type: TypeAPIOK, Games: 3}, set("games", "3"))
	add("api_reply/request type", "api_reply", APIReply{V: Version, Type: TypeAPIOK}, set("type", TypeAPICreate))
	add("api_reply/unknown player field", "api_reply", APIReply{V: Version, Type: TypeAPIOK},
		set("players", []any{map[string]any{"name": "a", "last_seen": "x", "connected": true, "rating": 1}}))
	add("api_reply/connected as string", "api_reply", APIReply{V: Version, Type: TypeAPIOK},
		set("players", []any{map[string]any{"name": "a", "last_seen": "x", "connected": "yes"}}))
	add("api_reply/unknown standings field", "api_reply", APIReply{V: Version, Type: TypeAPIOK},
		set("tournaments", []any{map[string]any{"id": 1, "game": "g", "format": "f", "status": "s", "played": 0, "total": 0, "created": "c",
			"standings": []any{map[string]any{"rank": 1, "player": "p", "games": 0, "wins": 0, "draws": 0, "losses": 0, "score": 0, "score_pct": 0, "elo": 0, "Elo": 1}}}}))
	add("api_reply/termination count as string", "api_reply", APIReply{V: Version, Type: TypeAPIOK},
		set("tournaments", []any{map[string]any{"id": 1, "game": "g", "format": "f", "status": "s", "played": 0, "total": 0, "created": "c",
			"standings": []any{map[string]any{"rank": 1, "player": "p", "games": 0, "wins": 0, "draws": 0, "losses": 0, "score": 0, "score_pct": 0, "elo": 0,
				"terminations": map[string]any{"normal": "2"}}}}}))
	del2 := func(key string) func(map[string]any) { return func(m map[string]any) { delete(m, key) } }
	add("engine_request/fetch without a version", "engine_request", sampleEngineRequest(TypeHostFetch), del2("version"))
	add("engine_request/fetch of version s0", "engine_request", sampleEngineRequest(TypeHostFetch), set("version", "s0"))
	add("engine_request/fetch of a dotted name", "engine_request", sampleEngineRequest(TypeHostFetch), set("name", "a.b"))
	add("engine_request/report of submitted", "engine_request", sampleEngineRequest(TypeHostReport), set("state", EngineSubmitted))
	add("engine_request/report without a state", "engine_request", sampleEngineRequest(TypeHostReport), del2("state"))
	add("engine_request/report with a long log", "engine_request", sampleEngineRequest(TypeHostReport), set("log", strings.Repeat("x", MaxEngineLog+1)))
	add("engine_reply/submitted without sha256", "engine_reply", sampleEngineSubmitted(), del2("sha256"))
	add("engine_reply/submitted of size 0", "engine_reply", sampleEngineSubmitted(), set("size", 0))
	add("engine_reply/upper-case sha256", "engine_reply", sampleEngineSubmitted(), set("sha256", strings.ToUpper(sampleSHA)))
	add("engine_reply/error type", "engine_reply", sampleEngineSubmitted(), set("type", TypeAPIError))
	add("engine_reply/unknown submission state", "engine_reply", EngineReply{V: Version, Type: TypeEngineList},
		set("submissions", []any{map[string]any{"name": "a", "version": "s1", "state": "lost", "size": 1, "sha256": sampleSHA, "created": "", "updated": ""}}))
	add("engine_reply/archive name with a slash", "engine_reply", EngineReply{V: Version, Type: TypeEngineList},
		set("submissions", []any{map[string]any{"name": "a", "version": "s1", "state": "built", "size": 1, "sha256": sampleSHA, "created": "", "updated": "", "archive": "x/y.zip"}}))
	add("engine_event/unknown state", "engine_event", sampleEngineEvent(), set("state", "lost"))
	add("engine_event/bare version", "engine_event", sampleEngineEvent(), set("version", "3"))
	add("engine_event/version with a newline", "engine_event", sampleEngineEvent(), set("version", "s3\n"))
	for _, raw := range []string{"", "v=1", "null", "[]", `[{"v":1}]`, "{}", `{"v":1}`, `"hello"`, `{"v":1,"type":"hello","name":"a"} {}`} {
		for _, m := range schemaMessages {
			out = append(out, bad{m.def + "/raw " + strconv.Quote(raw), m.def, []byte(raw)})
		}
	}
	return out
}

func TestSchemaAndDecodersRejectInvalid(t *testing.T) {
	s := schemas(t)
	for _, b := range invalidMessages(t) {
		t.Run(b.name, func(t *testing.T) {
			serr := s.validate(b.def, b.data)
			_, derr := wireKindFor(b.def).decode(b.data)
			if serr == nil {
				t.Errorf("the schema accepts %s", b.data)
			}
			if !errors.Is(derr, ErrMalformed) {
				t.Errorf("the decoder accepts %s (err %v)", b.data, derr)
			}
		})
	}
}

// wireKind is a message of the schema with the decoder that reads it.
type wireKind struct {
	def    string
	decode func([]byte) (any, error)
	limit  int // the decoder's size limit in bytes
}

func wireKinds() []wireKind {
	return []wireKind{
		{"hello", wrap(DecodeHello), MaxMessageSize},
		{"welcome", wrap(DecodeWelcome), MaxMessageSize},
		{"rollcall", wrap(DecodeRollCall), MaxMessageSize},
		{"turn_request", wrap(DecodeTurnRequest), MaxMessageSize},
		{"turn_reply", wrap(DecodeTurnReply), MaxMessageSize},
		{"game_notice", wrap(DecodeGameNotice), MaxMessageSize},
		{"game_event", wrap(DecodeGameEvent), MaxMessageSize},
		{"api_request", decodeAnyAPIRequest, MaxAPIMessageSize},
		{"api_reply", wrap(DecodeAPIReply), MaxAPIMessageSize},
		{"engine_request", decodeAnyEngineRequest, MaxAPIMessageSize},
		{"engine_reply", wrap(DecodeEngineReply), MaxAPIMessageSize},
		{"engine_event", wrap(DecodeEngineEvent), MaxMessageSize},
	}
}

func wireKindFor(def string) wireKind {
	for _, k := range wireKinds() {
		if k.def == def {
			return k
		}
	}
	panic("no wire kind " + def)
}

// decodeAnyAPIRequest accepts a request of any of the four operations, as the schema
// does; the referee checks the type against the subject it came on.
func decodeAnyAPIRequest(data []byte) (any, error) {
	var err error
	for _, typ := range []string{TypeAPICreate, TypeAPIStatus, TypeAPICancel, TypeAPIPlayers} {
		var m APIRequest
		if m, err = DecodeAPIRequest(data, typ); err == nil {
			return m, nil
		}
	}
	return APIRequest{}, err
}

// The documented ways in which the schema and the decoders may disagree.
const (
	spotSize    = "size in bytes"           // over MaxMessageSize or MaxAPIMessageSize
	spotKeys    = "repeated field or depth" // a field given twice, or nesting over 32 levels
	spotNumber  = "number literal"          // 5.0 or 1e2 in an integer field, or out of range
	spotBytes   = "length in bytes"         // move, agent or version over 64 bytes but not characters
	spotSeat    = "seat not an index"       // a notice's seat >= len(players)
	lenientZero = "missing or null is zero" // the decoder reads a missing field or null as zero
)

var numberErrRE = regexp.MustCompile(`cannot unmarshal JSON number \S+ into`)

// schemaBlindSpot says which documented limit of the schema explains a message the schema
// accepts and the decoder rejected with decErr, or "" when none does.
func schemaBlindSpot(k wireKind, data []byte, decErr error) string {
	if len(data) > k.limit {
		return spotSize
	}
	if strictjson.Decode(data, new(json.RawMessage)) != nil {
		return spotKeys
	}
	if numberErrRE.MatchString(decErr.Error()) {
		return spotNumber
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	overBytes := func(key string, limit int) bool {
		s, ok := m[key].(string)
		return ok && len(s) > limit && utf8.RuneCountInString(s) <= limit
	}
	switch k.def {
	case "hello":
		if overBytes("agent", 64) || overBytes("version", 64) {
			return spotBytes
		}
	case "turn_reply":
		if overBytes("move", 64) {
			return spotBytes
		}
	case "engine_request", "engine_event":
		if overBytes("log", MaxEngineLog) {
			return spotBytes
		}
	case "engine_reply":
		subs, _ := m["submissions"].([]any)
		for _, s := range subs {
			sub, _ := s.(map[string]any)
			for key, limit := range map[string]int{"log": MaxEngineLog, "archive": MaxArchiveName} {
				if v, ok := sub[key].(string); ok && len(v) > limit && utf8.RuneCountInString(v) <= limit {
					return spotBytes
				}
			}
		}
	case "game_notice":
		seat, _ := m["seat"].(float64)
		players, _ := m["players"].([]any)
		if int(seat) >= len(players) {
			return spotSeat
		}
	}
	return ""
}

// onlyZeroLeniency reports whether a validation error comes only from missing required
// fields (when missingOK) and nulls where the schema wants a value: whether the message
// would be valid with those fields given their zero values.
func onlyZeroLeniency(err error, missingOK bool) bool {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	var lenient func(*jsonschema.ValidationError) bool
	lenient = func(e *jsonschema.ValidationError) bool {
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			return missingOK
		case *kind.Type:
			return k.Got == "null"
		case *kind.AnyOf, *kind.OneOf:
			// One alternative failing only leniently is enough.
			return slices.ContainsFunc(e.Causes, lenient)
		}
		if len(e.Causes) == 0 {
			return false
		}
		for _, c := range e.Causes {
			if !lenient(c) {
				return false
			}
		}
		return true
	}
	return lenient(ve)
}

// compareVerdicts runs the schema and the decoder of k on data. It returns the documented
// difference that explains a disagreement ("" when they agree), or an error when nothing
// does.
func compareVerdicts(s *compiledSchemas, k wireKind, data []byte) (string, error) {
	serr := s.validate(k.def, data)
	msg, derr := k.decode(data)
	switch {
	case (serr == nil) == (derr == nil):
		return "", nil
	case serr == nil:
		if spot := schemaBlindSpot(k, data, derr); spot != "" {
			return spot, nil
		}
		return "", fmt.Errorf("the schema accepts, the decoder rejects: %v", derr)
	default:
		if !onlyZeroLeniency(serr, true) {
			return "", fmt.Errorf("the decoder accepts, the schema rejects: %v", serr)
		}
		// What the decoder made of it, written out again, validates, but for lists the
		// decoder left nil, which Encode writes as null.
		if enc := Encode(msg); s.validate(k.def, enc) != nil && !onlyZeroLeniency(s.validate(k.def, enc), false) {
			return "", fmt.Errorf("the decoder accepts it, but its re-encoding %s is invalid: %v", enc, s.validate(k.def, enc))
		}
		return lenientZero, nil
	}
}

// mutate returns data with systematic changes: each field of each object, at any depth,
// removed or replaced by a value of each JSON type.
func mutate(data []byte) [][]byte {
	var root any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil
	}
	replacements := []any{nil, "", "x", -1, 0, 1.5, 65, true, []any{}, []any{"d3"}, map[string]any{}}
	var out [][]byte
	emit := func() {
		if b, err := json.Marshal(root); err == nil {
			out = append(out, b)
		}
	}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, key := range slices.Sorted(maps.Keys(v)) {
				old := v[key]
				delete(v, key)
				emit()
				for _, r := range replacements {
					v[key] = r
					emit()
				}
				v[key] = old
				visit(old)
			}
		case []any:
			for i, e := range v {
				v[i] = nil
				emit()
				v[i] = e
				visit(e)
			}
		}
	}
	visit(root)
	return out
}

// seedVariants are the near misses fuzz_test.go's seed adds for each valid message.
func seedVariants(b []byte) [][]byte {
	return [][]byte{
		b,
		b[:len(b)/2],
		append(bytes.Clone(b), ' '),
		append(bytes.Clone(b), '{', '}'),
		bytes.Replace(b, []byte(`"v":1`), []byte(`"v":2`), 1),
		bytes.Replace(b, []byte(`"v":1`), []byte(`"v":1,"x":null`), 1),
		bytes.Replace(b, []byte(`"v":1`), []byte(`"V":1`), 1),
		bytes.Replace(b, []byte(`"type"`), []byte(`"type":"hello","type"`), 1),
		bytes.ToUpper(b),
	}
}

// fuzzSeedLiterals are the fixed inputs the fuzzers of fuzz_test.go and api_test.go add.
var fuzzSeedLiterals = []string{
	``, `null`, `{}`, `{"v":1}`, `[{"v":1}]`,
	`{"v":1e0,"type":"\u0068ello"}`,
	"{\"v\":1,\"type\":\"hello\",\"name\":\"\xff\"}",
	`{"v":1,"type":"turn","game_id":"g","game":"x","seat":0,"ply":0,"position":"","legal":null,"moves":[],"observation":null,"clock":{}}`,
	`{"v":1,"type":"turn","game_id":"g","game":"x","seat":0,"ply":0,"position":"","legal":[],"moves":[],"observation":"<&>","clock":{}}`,
	`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":-0,"pv":[]}}`,
	`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":1e308}}`,
	`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":null}`,
	`{"v":1,"type":"game_end","type":"game_start","game_id":"g","game":"x","seat":0,"players":["a"]}`,
	`{"v":"1","type":"game_end","game_id":"g","game":"x","seat":0,"players":["a"]}`,
	`{"v":1,"type":"create","config":"game = \"othello\"","openings":"d3\n"}`,
	`{"v":1,"type":"cancel","tournament":4}`,
	`{"v":1,"type":"status","tournament":0}`,
}

// blindSpotExamples are messages the schema accepts and a decoder rejects, one for each
// documented blind spot, so that the corpus shows each of them.
func blindSpotExamples(t testing.TB) [][]byte {
	valid := Encode(sampleTurnReply())
	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	return [][]byte{
		append(bytes.Clone(valid), bytes.Repeat([]byte(" "), MaxMessageSize)...),
		[]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","move":"c4"}`),
		[]byte(`{"v":1,"type":"turn","game_id":"g","game":"x","seat":0,"seat_name":"","ply":0,"position":"","legal":[],"moves":[],"observation":` + deep + `,"clock":{"move_ms":1,"remaining_ms":1,"increment_ms":0}}`),
		[]byte(`{"v":1.0,"type":"move","game_id":"g","ply":0,"move":"d3"}`),
		[]byte(`{"v":1,"type":"move","game_id":"g","ply":1e2,"move":"d3"}`),
		[]byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"d3","info":{"score":1e400}}`),
		[]byte(`{"v":1,"type":"move","game_id":"g","ply":9223372036854775808,"move":"d3"}`),
		edit(t, sampleTurnReply(), set("move", strings.Repeat("é", 40))),
		edit(t, sampleHello(), set("agent", strings.Repeat("€", 30))),
		edit(t, sampleGameStart(), set("seat", 2)),
	}
}

// agreementCorpus gathers the inputs on which schema and decoders must agree.
func agreementCorpus(t testing.TB) [][]byte {
	var corpus [][]byte
	for _, sm := range schemaSamples() {
		b := Encode(sm.msg)
		corpus = append(corpus, seedVariants(b)...)
		corpus = append(corpus, mutate(b)...)
	}
	for _, s := range fuzzSeedLiterals {
		corpus = append(corpus, []byte(s))
	}
	for _, b := range invalidMessages(t) {
		corpus = append(corpus, b.data)
	}
	corpus = append(corpus, blindSpotExamples(t)...)
	if doc, err := os.ReadFile(protocolDoc); err == nil {
		blocks, _ := docBlocks(string(doc))
		for _, b := range blocks {
			corpus = append(corpus, []byte(b.text))
		}
	}
	corpus = append(corpus, fuzzCorpusFiles(t)...)
	return corpus
}

// fuzzCorpusFiles reads the inputs stored under testdata/fuzz (go test -fuzz writes the
// failures it finds there), if any.
func fuzzCorpusFiles(t testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "*", "*"))
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" {
			continue
		}
		lit, ok := strings.CutPrefix(lines[1], "[]byte(")
		if !ok {
			continue
		}
		if s, err := strconv.Unquote(strings.TrimSuffix(lit, ")")); err == nil {
			out = append(out, []byte(s))
		}
	}
	return out
}

func TestSchemaAgreesWithDecoders(t *testing.T) {
	s := schemas(t)
	corpus := agreementCorpus(t)
	counts := map[string]int{}
	for i, data := range corpus {
		for _, k := range wireKinds() {
			why, err := compareVerdicts(s, k, data)
			if err != nil {
				t.Errorf("input %d as %s: %v\n%.300s", i, k.def, err, data)
				continue
			}
			counts[why]++
		}
	}
	keys := slices.Sorted(maps.Keys(counts))
	var summary []string
	for _, k := range keys {
		name := k
		if name == "" {
			name = "same verdict"
		}
		summary = append(summary, fmt.Sprintf("%s: %d", name, counts[k]))
	}
	slices.Sort(summary)
	t.Logf("%d inputs x %d messages: %s", len(corpus), len(wireKinds()), strings.Join(summary, ", "))
	// Each documented difference is shown by the corpus, so none of them is dead weight.
	for _, spot := range []string{spotSize, spotKeys, spotNumber, spotBytes, spotSeat, lenientZero} {
		if counts[spot] == 0 {
			t.Errorf("no input of the corpus shows the documented difference %q", spot)
		}
	}
}

// FuzzSchemaAgreement checks, on arbitrary input, that every message's schema and decoder
// reach the same verdict but for the documented differences.
func FuzzSchemaAgreement(f *testing.F) {
	for _, sm := range schemaSamples() {
		for _, b := range seedVariants(Encode(sm.msg)) {
			f.Add(b)
		}
	}
	for _, s := range fuzzSeedLiterals {
		f.Add([]byte(s))
	}
	for _, b := range blindSpotExamples(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := schemas(t)
		for _, k := range wireKinds() {
			if _, err := compareVerdicts(s, k, data); err != nil {
				t.Fatalf("as %s: %v", k.def, err)
			}
		}
	})
}
