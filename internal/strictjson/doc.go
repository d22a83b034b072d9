// Package strictjson is the one strict JSON read of Arena: Decode refuses unknown fields,
// keys that do not spell a field exactly (case included), keys given twice, nesting deeper
// than MaxDepth and anything but white space after the value. Otherwise a value means
// what encoding/json makes of it: durations in nanoseconds, bytes that are not UTF-8
// replaced by U+FFFD.
//
// The wire protocol, the work queue, the learned agents' weights files and the trainer's
// checkpoints share it, so that a file or a message means one thing to every reader.
// It rests on github.com/go-json-experiment/json (encoding/json/v2), which checks all of
// this in one pass.
package strictjson
