package protocol

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The messages of a turn (TurnRequest and TurnReply), and the notices and events that go
// with every game, are encoded and decoded here by hand rather than through reflection:
// they are the referee's hot path. (Since strictjson rests on json v2, the strict read
// of a 60-move turn request costs about 1.5 times the scan and 11 allocations against 4;
// BenchmarkDecodeStrictTurnRequest and BenchmarkDecodeTurnRequest measure both.)
//
// The encoders write exactly the bytes encoding/json writes (the tests compare them).
//
// The decoders are a fast path in front of the strict decoder, never a replacement: a
// scan accepts only the plain forms of JSON it fully understands (known keys spelled
// exactly and given once, no null, integers without fraction or exponent, strings whose
// escapes it knows) and gives up on anything else, and then the message is decoded again
// by strictjson, which accepts or rejects it and says why.
// What the fast path accepts, the strict decoder accepts too, as the same value (the
// fuzzers check both). So untrusted input gets exactly the judgement it always got.

// scan reads one JSON object of a known shape from data, giving up (ok false) at the
// first thing it does not handle. Strings are substrings of text, the data as one string,
// so that decoding a message allocates its text once rather than once a string.
type scan struct {
	data []byte
	text string // data as a string, made on the first string read
	i    int
	ok   bool
}

func newScan(data []byte) *scan { return &scan{data: data, ok: true} }

// fail gives up; it returns false so that callers can return s.fail().
func (s *scan) fail() bool {
	s.ok = false
	return false
}

// ws skips white space as JSON defines it.
func (s *scan) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte without consuming it, or 0 at the end.
func (s *scan) next() byte {
	s.ws()
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// expect consumes c after white space, or gives up.
func (s *scan) expect(c byte) bool {
	if !s.ok || s.next() != c {
		return s.fail()
	}
	s.i++
	return true
}

// end reports whether nothing but white space is left.
func (s *scan) end() bool {
	s.ws()
	return s.ok && s.i == len(s.data)
}

// object reads an object, calling field for each key with the scan positioned at its value;
// field reads the value, and returns false for a key it does not know or has seen already
// in this object (see seen).
func (s *scan) object(field func(key string) bool) bool {
	if !s.expect('{') {
		return false
	}
	if s.next() == '}' {
		s.i++
		return true
	}
	for {
		key, ok := s.key()
		if !ok || !s.expect(':') {
			return s.fail()
		}
		s.ws()
		if !field(key) || !s.ok {
			return s.fail()
		}
		switch s.next() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return s.fail()
		}
	}
}

// key reads an object key: plain ASCII letters and '_' only, which every known key is.
// A key in any other form (an escape, say) is left to the strict decoder.
func (s *scan) key() (string, bool) {
	if s.next() != '"' {
		return "", s.fail()
	}
	start := s.i + 1
	for j := start; j < len(s.data); j++ {
		c := s.data[j]
		switch {
		case c == '"':
			s.i = j + 1
			return s.str(start, j), true
		case 'a' <= c && c <= 'z', c == '_':
		default:
			return "", s.fail()
		}
	}
	return "", s.fail()
}

// str returns data[i:j] as a string without copying it again.
func (s *scan) str(i, j int) string {
	if s.text == "" {
		s.text = string(s.data)
	}
	return s.text[i:j]
}

// string reads a string value. Escapes are decoded as encoding/json decodes them, except
// that a \u escape of a surrogate is left to the strict decoder; so are control characters
// (an error) and bytes that are not UTF-8 (which encoding/json replaces).
func (s *scan) string() string {
	if !s.ok || s.next() != '"' {
		s.fail()
		return ""
	}
	start := s.i + 1
	j := start
	ascii := true
	for ; j < len(s.data); j++ {
		c := s.data[j]
		if c == '"' {
			s.i = j + 1
			if !ascii && !utf8.Valid(s.data[start:j]) {
				s.fail()
				return ""
			}
			return s.str(start, j)
		}
		if c == '\\' {
			return s.escaped(start, j)
		}
		if c < 0x20 {
			s.fail()
			return ""
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	s.fail()
	return ""
}

// escaped reads the rest of a string from its first backslash at j.
func (s *scan) escaped(start, j int) string {
	b := append(make([]byte, 0, j-start+16), s.data[start:j]...)
	for j < len(s.data) {
		c := s.data[j]
		switch {
		case c == '"':
			s.i = j + 1
			if !utf8.Valid(b) {
				s.fail()
				return ""
			}
			return string(b)
		case c < 0x20:
			s.fail()
			return ""
		case c != '\\':
			b = append(b, c)
			j++
			continue
		}
		if j+1 >= len(s.data) {
			break
		}
		switch e := s.data[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s.data[j+2:])
			if !ok || (0xd800 <= r && r < 0xe000) {
				s.fail()
				return ""
			}
			b = utf8.AppendRune(b, r)
			j += 4
		default:
			s.fail()
			return ""
		}
		j += 2
	}
	s.fail()
	return ""
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// int reads an integer: an optional minus sign and at most 18 digits, without fraction or
// exponent (encoding/json refuses those for an integer field; it is left to say so).
func (s *scan) int() int {
	if !s.ok {
		return 0
	}
	s.ws()
	j := s.i
	neg := j < len(s.data) && s.data[j] == '-'
	if neg {
		j++
	}
	first := j
	var n int64
	for j < len(s.data) && '0' <= s.data[j] && s.data[j] <= '9' {
		n = n*10 + int64(s.data[j]-'0')
		j++
	}
	digits := j - first
	if digits == 0 || digits > 18 || (digits > 1 && s.data[first] == '0') || !s.numberEnds(j) {
		s.fail()
		return 0
	}
	s.i = j
	if neg {
		n = -n
	}
	if int64(int(n)) != n {
		s.fail()
		return 0
	}
	return int(n)
}

// numberEnds reports whether a number can end at j: what follows is not part of it.
func (s *scan) numberEnds(j int) bool {
	if j == len(s.data) {
		return true
	}
	switch s.data[j] {
	case '.', 'e', 'E', '+', '-':
		return false
	}
	return !('0' <= s.data[j] && s.data[j] <= '9')
}

// float reads a number in JSON's grammar, as encoding/json reads it into a float64.
func (s *scan) float() float64 {
	if !s.ok {
		return 0
	}
	s.ws()
	j := s.i
	digits := func() int {
		k := j
		for j < len(s.data) && '0' <= s.data[j] && s.data[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(s.data) && s.data[j] == '-' {
		j++
	}
	first := j
	if n := digits(); n == 0 || (n > 1 && s.data[first] == '0') {
		s.fail()
		return 0
	}
	if j < len(s.data) && s.data[j] == '.' {
		j++
		if digits() == 0 {
			s.fail()
			return 0
		}
	}
	if j < len(s.data) && (s.data[j] == 'e' || s.data[j] == 'E') {
		j++
		if j < len(s.data) && (s.data[j] == '+' || s.data[j] == '-') {
			j++
		}
		if digits() == 0 {
			s.fail()
			return 0
		}
	}
	if !s.numberEnds(j) {
		s.fail()
		return 0
	}
	f, err := strconv.ParseFloat(string(s.data[s.i:j]), 64)
	if err != nil {
		s.fail()
		return 0
	}
	s.i = j
	return f
}

// bool reads true or false.
func (s *scan) bool() bool {
	if !s.ok {
		return false
	}
	s.ws()
	rest := s.data[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false
	}
	s.fail()
	return false
}

// array reads an array, calling elem with the scan positioned at each element.
func (s *scan) array(elem func()) {
	if !s.expect('[') {
		return
	}
	if s.next() == ']' {
		s.i++
		return
	}
	for s.ok {
		elem()
		switch s.next() {
		case ',':
			s.i++
		case ']':
			s.i++
			return
		default:
			s.fail()
		}
	}
}

// elems guesses how many elements the array about to be read has, from its commas
// outside strings, so that lists are allocated once. It only sizes an allocation.
func (s *scan) elems() int {
	n, in, esc := 1, false, false
	for _, c := range s.data[s.i:] {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == ',':
			n++
		case c == ']':
			return min(n, 1024)
		}
	}
	return 0
}

// strings reads an array of strings; [] is an empty list, not nil, as encoding/json has it.
func (s *scan) strings() []string {
	out := make([]string, 0, s.elems())
	s.array(func() { out = append(out, s.string()) })
	return out
}

// floats reads an array of numbers.
func (s *scan) floats() []float64 {
	out := make([]float64, 0, s.elems())
	s.array(func() { out = append(out, s.float()) })
	return out
}

// seen records the keys of one object already read, by bit, to refuse a repeated one.
type seen uint32

// first marks key bit k and reports whether it was not marked yet.
func (m *seen) first(k uint) bool {
	if *m&(1<<k) != 0 {
		return false
	}
	*m |= 1 << k
	return true
}

// The appenders write values as encoding/json does, HTML characters escaped included.

const hexDigits = "0123456789abcdef"

// htmlSafe is true for the ASCII bytes encoding/json writes as they are.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if htmlSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendStrings writes a list; nil is null, as encoding/json writes it.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendFloat writes f as encoding/json does. It reports false for a NaN or an infinity,
// which JSON cannot carry.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

func appendFloats(b []byte, fs []float64) ([]byte, bool) {
	if fs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendFloat(b, f); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendKey writes a field's key with the comma before it, unless it is the first.
func appendKey(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendInt(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(appendKey(b, key), n, 10)
}

func appendStr(b []byte, key, s string) []byte { return appendString(appendKey(b, key), s) }
