package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// MaxDepth bounds how deeply a value may nest objects and arrays below the top one. No
// message or file Arena reads needs more than a few levels; the bound keeps hostile input
// from driving deep recursion.
const MaxDepth = 32

// ErrTrailing is returned by Decode for data after the JSON value.
var ErrTrailing = errors.New("data after the JSON object")

// options are json v2's defaults (case-sensitive names, no name twice) with unknown
// members refused, and encoding/json's reading of durations and of bytes that are not
// UTF-8, which the writers of Arena's messages and files (encoding/json) rely on.
var options = json.JoinOptions(
	json.RejectUnknownMembers(true),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(true),
	jsonv1.FormatDurationAsNano(true),
)

// Decode decodes data, one JSON value, into v (a pointer to a struct): fields v does not
// have are errors, and so are keys that spell a field in another case, keys given twice
// (in free-form values such as a json.RawMessage too), nesting deeper than MaxDepth and
// anything but white space after the value (a stray closing brace included). The caller
// bounds the size of data.
func Decode(data []byte, v any) error {
	if err := checkDepth(data); err != nil {
		return err
	}
	r := readers.Get().(*reader)
	err := r.decode(data, v)
	r.release() // not deferred: a decoder a panic left behind is not reused
	return err
}

// A reader is a decoder and its source, kept for the next Decode: a jsontext.Decoder is
// large enough that allocating one per message costs more than reading a turn.
type reader struct {
	dec jsontext.Decoder
	src bytes.Buffer
}

var readers = sync.Pool{New: func() any { return new(reader) }}

// decode is Decode's reading of data into v.
func (r *reader) decode(data []byte, v any) error {
	r.src = *bytes.NewBuffer(data) // read in place, not copied
	r.dec.Reset(&r.src, options)
	if err := json.UnmarshalDecode(&r.dec, v); err != nil {
		return explain(err)
	}
	if _, err := r.dec.ReadToken(); err != io.EOF {
		return ErrTrailing
	}
	return nil
}

// release lets go of the data read and returns r to the pool.
func (r *reader) release() {
	r.src = bytes.Buffer{}
	r.dec.Reset(&r.src)
	readers.Put(r)
}

// explain words the errors of the strict checks as encoding/json and the earlier
// strictjson did, which messages to engine authors and tests quote; other errors are json
// v2's own, but always worded with "cannot": json v2 picks "cannot" or "unable to" at
// random once per process, so that nobody matches its text, and a message to a player
// should not change from one run to the next.
func explain(err error) error {
	var serr *json.SemanticError
	if errors.As(err, &serr) && errors.Is(serr.Err, json.ErrUnknownName) {
		name := serr.JSONPointer.LastToken()
		return fmt.Errorf("json: unknown field %q%s%s", name, where(serr.JSONPointer.Parent()), caseHint(serr.GoType, name))
	}
	var xerr *jsontext.SyntacticError
	if errors.As(err, &xerr) && errors.Is(xerr.Err, jsontext.ErrDuplicateName) {
		return fmt.Errorf("field %q given twice%s", xerr.JSONPointer.LastToken(), where(xerr.JSONPointer.Parent()))
	}
	if rest, ok := strings.CutPrefix(err.Error(), "json: unable to "); ok && serr != nil {
		return reworded{"json: cannot " + rest, err}
	}
	return err
}

// reworded is an error with the text of its own and the cause of another.
type reworded struct {
	text  string
	cause error
}

func (e reworded) Error() string { return e.text }
func (e reworded) Unwrap() error { return e.cause }

// caseHint points out, when name is unknown to the struct type t only by its case, that
// the case matters: encoding/json would have taken it.
func caseHint(t reflect.Type, name string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" {
			tag = f.Name
		}
		if f.IsExported() && tag != "-" && strings.EqualFold(tag, name) {
			return " (field names are case-sensitive)"
		}
	}
	return ""
}

// where names the object a key is in, as a JSON pointer, or nothing for the top one.
func where(p jsontext.Pointer) string {
	if p == "" {
		return ""
	}
	return " in " + string(p)
}

// checkDepth refuses data that nests objects and arrays more than MaxDepth levels below
// the top value. It only counts brackets outside strings: whether data is JSON at all is
// the decoder's to say.
func checkDepth(data []byte) error {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if depth++; depth > MaxDepth+1 {
				return fmt.Errorf("nested more than %d levels deep", MaxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}
