// Package strictjson checks JSON object keys more strictly than encoding/json: every key
// that maps to a struct field must spell it exactly, case included, and appear only once.
// Decode is the whole strict read: unknown fields refused, nothing after the value, keys
// checked.
// The wire protocol and the learned agents' weights files share it, so that a file or a
// message means one thing to every reader.
package strictjson
