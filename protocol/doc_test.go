package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The JSON examples of docs/protocol.md are checked against the decoders, so that the
// reference cannot drift from the code. Every ```json block must be preceded by a label
// line naming the message it shows:
//
//	<!-- message: turn_request -->
//	```json
//	{"v":1,"type":"turn",...}
//	```
//
// A labelled block must decode with the matching decoder, be of the labelled type, and be
// exactly what Encode writes for it once the white space added for reading is removed.
// A JSON block that is deliberately no valid message is labelled "none".

const protocolDoc = "../docs/protocol.md"

// docLabels maps each label to its decoder and the message type it must have.
var docLabels = map[string]struct {
	decode func([]byte) (any, error)
	typ    string
}{
	"hello":            {wrap(DecodeHello), TypeHello},
	"welcome":          {wrap(DecodeWelcome), TypeWelcome},
	"rollcall":         {wrap(DecodeRollCall), TypeRollCall},
	"turn_request":     {wrap(DecodeTurnRequest), TypeTurn},
	"turn_reply":       {wrap(DecodeTurnReply), TypeMove},
	"game_start":       {wrap(DecodeGameNotice), TypeGameStart},
	"game_end":         {wrap(DecodeGameNotice), TypeGameEnd},
	"event_start":      {wrap(DecodeGameEvent), TypeEventStart},
	"event_move":       {wrap(DecodeGameEvent), TypeEventMove},
	"event_end":        {wrap(DecodeGameEvent), TypeEventEnd},
	"engine_status":    {engineRequestDecoder(TypeEngineStatus), TypeEngineStatus},
	"host_list":        {engineRequestDecoder(TypeHostList), TypeHostList},
	"host_fetch":       {engineRequestDecoder(TypeHostFetch), TypeHostFetch},
	"host_report":      {engineRequestDecoder(TypeHostReport), TypeHostReport},
	"engine_submitted": {wrap(DecodeEngineReply), TypeEngineSubmitted},
	"engine_list":      {wrap(DecodeEngineReply), TypeEngineList},
	"engine_state":     {wrap(DecodeEngineEvent), TypeEngineState},
}

// engineRequestDecoder decodes an engine request of type typ.
func engineRequestDecoder(typ string) func([]byte) (any, error) {
	return func(b []byte) (any, error) { return DecodeEngineRequest(b, typ) }
}

// docBlock is one labelled JSON block of the document.
type docBlock struct {
	label string
	line  int // of the opening fence
	text  string
}

// docBlocks extracts the JSON blocks of a Markdown document with their labels.
func docBlocks(doc string) ([]docBlock, error) {
	var (
		blocks []docBlock
		label  string // pending label, waiting for its block
		labLn  int
		cur    *docBlock
		n      int
	)
	sc := bufio.NewScanner(strings.NewReader(doc))
	for sc.Scan() {
		n++
		line := sc.Text()
		trim := strings.TrimSpace(line)
		if cur != nil {
			if trim == "```" {
				blocks = append(blocks, *cur)
				cur = nil
			} else {
				cur.text += line + "\n"
			}
			continue
		}
		switch {
		case strings.HasPrefix(trim, "<!-- message:"):
			if label != "" {
				return nil, fmt.Errorf("line %d: label %q has no JSON block", labLn, label)
			}
			label = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(trim, "<!-- message:"), "-->"))
			labLn = n
		case trim == "```json":
			if label == "" {
				return nil, fmt.Errorf("line %d: JSON block without a <!-- message: ... --> label", n)
			}
			cur = &docBlock{label: label, line: n}
			label = ""
		case trim == "":
		default:
			if label != "" {
				return nil, fmt.Errorf("line %d: label %q is not followed by a JSON block", labLn, label)
			}
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("line %d: JSON block not closed", cur.line)
	}
	if label != "" {
		return nil, fmt.Errorf("line %d: label %q has no JSON block", labLn, label)
	}
	return blocks, sc.Err()
}

func TestProtocolDocExamples(t *testing.T) {
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := docBlocks(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", protocolDoc, err)
	}
	seen := map[string]bool{}
	for _, b := range blocks {
		t.Run(fmt.Sprintf("line%d_%s", b.line, b.label), func(t *testing.T) {
			if b.label == "none" {
				return
			}
			l, ok := docLabels[b.label]
			if !ok {
				t.Fatalf("unknown label %q", b.label)
			}
			seen[b.label] = true
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(b.text)); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, b.text)
			}
			msg, err := l.decode(compact.Bytes())
			if err != nil {
				t.Fatalf("does not decode as %s: %v\n%s", b.label, err, b.text)
			}
			var h Header
			if err := json.Unmarshal(compact.Bytes(), &h); err != nil || h.Type != l.typ {
				t.Fatalf("type %q, want %q", h.Type, l.typ)
			}
			if enc := Encode(msg); !bytes.Equal(enc, compact.Bytes()) {
				t.Fatalf("not what Encode writes:\n doc %s\nwant %s", compact.Bytes(), enc)
			}
		})
	}
	for label := range docLabels {
		if !seen[label] {
			t.Errorf("%s has no example of %s", protocolDoc, label)
		}
	}
}

func TestDocBlocksRejectsUnlabelled(t *testing.T) {
	for _, doc := range []string{
		"```json\n{}\n```\n",
		"<!-- message: hello -->\ntext\n```json\n{}\n```\n",
		"<!-- message: hello -->\n",
		"<!-- message: hello -->\n```json\n{}\n",
	} {
		if _, err := docBlocks(doc); err == nil {
			t.Errorf("docBlocks accepted %q", doc)
		}
	}
}
