package protocol

import _ "embed" // for SchemaJSON

// SchemaJSON is the JSON Schema (draft 2020-12) of every v1 message, the text of
// protocol/schema/v1.json. Its top level accepts any v1 message; each message has its own
// entry under "$defs" (hello, welcome, rollcall, turn_request, turn_reply, game_notice,
// game_event, api_request, api_reply, engine_request, engine_reply, engine_event), for
// checking a message received on a known subject.
// The tests of this package keep it in step with the types and decoders here; the few
// checks it cannot express are listed in its top-level description.
//
//go:embed schema/v1.json
var SchemaJSON string
