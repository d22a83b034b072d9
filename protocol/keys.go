package protocol

import (
	"fmt"
	"reflect"

	"github.com/arenaref/arena/internal/strictjson"
)

// checkKeys checks the keys of a message that decoded without error into a value of type
// t, as strictjson does, with its errors wrapping ErrMalformed.
func checkKeys(data []byte, t reflect.Type) error {
	if err := strictjson.Check(data, t); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}
