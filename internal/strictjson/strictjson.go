package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// MaxDepth bounds how deeply checked JSON may nest objects and arrays. No message or file
// Arena reads needs more than a few levels; the bound keeps hostile input from driving
// deep recursion.
const MaxDepth = 32

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// fieldCache maps a struct type to its JSON field names and their types.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields returns the JSON names of t's fields, as their tags spell them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	fieldCache.Store(t, fields)
	return fields
}

// CheckKeys checks JSON that decoded without error into v (a pointer to a struct): every
// object key that maps to a struct field must spell it exactly, case included, and appear
// once. encoding/json alone matches keys regardless of case and lets a repeated key
// silently win, which would make two readers of one document differ.
func CheckKeys(data []byte, v any) error { return Check(data, reflect.TypeOf(v)) }

// Check is CheckKeys for a type; a nil t accepts any keys but still bounds the nesting.
func Check(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	return walkKeys(dec, t, 0, "")
}

// walkKeys checks the next JSON value of dec against t; a nil t accepts any value (it is
// used inside json.RawMessage and other free-form fields).
func walkKeys(dec *json.Decoder, t reflect.Type, depth int, path string) error {
	if depth > MaxDepth {
		return fmt.Errorf("nested more than %d levels deep", MaxDepth)
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		t = nil
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch delim {
	case '{':
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			var ft reflect.Type
			if fields != nil {
				var known bool
				if ft, known = fields[key]; !known {
					return fmt.Errorf("unknown field %q%s (field names are case-sensitive)", key, where(path))
				}
			}
			if seen[key] {
				return fmt.Errorf("field %q given twice%s", key, where(path))
			}
			seen[key] = true
			if err := walkKeys(dec, ft, depth+1, path+"."+key); err != nil {
				return err
			}
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := walkKeys(dec, elem, depth+1, path+"[]"); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return err
	}
	return nil
}

func where(path string) string {
	if path == "" {
		return ""
	}
	return " in " + strings.TrimPrefix(path, ".")
}
