package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// ErrTrailing is returned by Decode for data after the JSON value.
var ErrTrailing = errors.New("data after the JSON object")

// Decode decodes data, one JSON value, into v (a pointer to a struct): fields v does
// not have are errors, nothing but white space may follow the value (a stray closing
// brace included, which json.Decoder.More would let through), and the keys are checked as
// by CheckKeys. The caller bounds the size of data.
func Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return ErrTrailing
	}
	return CheckKeys(data, v)
}
