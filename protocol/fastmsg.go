package protocol

import "fmt"

// The hand-written encoders and decoders of the messages of every turn and every game;
// see fastjson.go for the rules they keep.

// AppendTurnRequest appends m, encoded as Encode encodes it, to b.
func AppendTurnRequest(b []byte, m *TurnRequest) []byte {
	if len(m.Observation) > 0 {
		// The raw observation is checked and compacted by encoding/json.
		return append(b, encodeJSON(m)...)
	}
	b = append(b, '{')
	b = appendInt(b, "v", int64(m.V))
	b = appendStr(b, "type", m.Type)
	b = appendStr(b, "game_id", m.GameID)
	b = appendStr(b, "game", m.Game)
	b = appendInt(b, "seat", int64(m.Seat))
	b = appendStr(b, "seat_name", m.SeatName)
	b = appendInt(b, "ply", int64(m.Ply))
	b = appendStr(b, "position", m.Position)
	b = appendStrings(appendKey(b, "legal"), m.Legal)
	b = appendStrings(appendKey(b, "moves"), m.Moves)
	b = append(appendKey(b, "clock"), '{')
	b = appendInt(b, "move_ms", m.Clock.MoveMS)
	b = appendInt(b, "remaining_ms", m.Clock.RemainingMS)
	b = appendInt(b, "increment_ms", m.Clock.IncrementMS)
	if m.Clock.PerMove {
		b = append(appendKey(b, "per_move"), "true"...)
	}
	if m.Clock.MovesToGo != 0 {
		b = appendInt(b, "moves_to_go", int64(m.Clock.MovesToGo))
	}
	if m.Clock.MarginMS != 0 {
		b = appendInt(b, "margin_ms", m.Clock.MarginMS)
	}
	if m.Clock.Ponder {
		b = append(appendKey(b, "ponder"), "true"...)
	}
	return append(b, '}', '}')
}

// AppendTurnReply appends m, encoded as Encode encodes it, to b.
func AppendTurnReply(b []byte, m *TurnReply) []byte {
	start := len(b)
	b = append(b, '{')
	b = appendInt(b, "v", int64(m.V))
	b = appendStr(b, "type", m.Type)
	b = appendStr(b, "game_id", m.GameID)
	b = appendInt(b, "ply", int64(m.Ply))
	b = appendStr(b, "move", m.Move)
	if in := m.Info; in != nil {
		b = append(appendKey(b, "info"), '{')
		if in.Depth != 0 {
			b = appendInt(b, "depth", int64(in.Depth))
		}
		if in.Nodes != 0 {
			b = appendInt(b, "nodes", in.Nodes)
		}
		if in.Score != 0 {
			var ok bool
			if b, ok = appendFloat(appendKey(b, "score"), in.Score); !ok {
				return append(b[:start], encodeJSON(m)...) // encoding/json says what is wrong
			}
		}
		if len(in.PV) > 0 {
			b = appendStrings(appendKey(b, "pv"), in.PV)
		}
		if in.Note != "" {
			b = appendStr(b, "note", in.Note)
		}
		b = append(b, '}')
	}
	if m.Crashed != "" {
		b = appendStr(b, "crashed", m.Crashed)
	}
	return append(b, '}')
}

// AppendGameNotice appends m, encoded as Encode encodes it, to b.
func AppendGameNotice(b []byte, m *GameNotice) []byte {
	start := len(b)
	b = append(b, '{')
	b = appendInt(b, "v", int64(m.V))
	b = appendStr(b, "type", m.Type)
	b = appendStr(b, "game_id", m.GameID)
	b = appendStr(b, "game", m.Game)
	b = appendInt(b, "seat", int64(m.Seat))
	b = appendStrings(appendKey(b, "players"), m.Players)
	if m.Position != "" {
		b = appendStr(b, "position", m.Position)
	}
	if len(m.Moves) > 0 {
		b = appendStrings(appendKey(b, "moves"), m.Moves)
	}
	if m.Result != "" {
		b = appendStr(b, "result", m.Result)
	}
	if m.Reason != "" {
		b = appendStr(b, "reason", m.Reason)
	}
	if len(m.Returns) > 0 {
		var ok bool
		if b, ok = appendFloats(appendKey(b, "returns"), m.Returns); !ok {
			return append(b[:start], encodeJSON(m)...)
		}
	}
	return append(b, '}')
}

// AppendGameEvent appends m, encoded as Encode encodes it, to b.
func AppendGameEvent(b []byte, m *GameEvent) []byte {
	start := len(b)
	b = append(b, '{')
	b = appendInt(b, "v", int64(m.V))
	b = appendStr(b, "type", m.Type)
	b = appendStr(b, "game_id", m.GameID)
	b = appendStr(b, "game", m.Game)
	if len(m.Players) > 0 {
		b = appendStrings(appendKey(b, "players"), m.Players)
	}
	b = appendInt(b, "ply", int64(m.Ply))
	b = appendInt(b, "seat", int64(m.Seat))
	if m.Move != "" {
		b = appendStr(b, "move", m.Move)
	}
	b = appendStr(b, "position", m.Position)
	if m.Result != "" {
		b = appendStr(b, "result", m.Result)
	}
	if m.Reason != "" {
		b = appendStr(b, "reason", m.Reason)
	}
	if m.Detail != "" {
		b = appendStr(b, "detail", m.Detail)
	}
	if len(m.Returns) > 0 {
		var ok bool
		if b, ok = appendFloats(appendKey(b, "returns"), m.Returns); !ok {
			return append(b[:start], encodeJSON(m)...)
		}
	}
	return append(b, '}')
}

// encodeFast encodes the messages that have a hand-written encoder; ok is false for the
// others.
func encodeFast(msg any) (b []byte, ok bool) {
	switch m := msg.(type) {
	case TurnRequest:
		return AppendTurnRequest(nil, &m), true
	case TurnReply:
		return AppendTurnReply(nil, &m), true
	case GameNotice:
		return AppendGameNotice(nil, &m), true
	case GameEvent:
		return AppendGameEvent(nil, &m), true
	case *TurnRequest:
		if m != nil {
			return AppendTurnRequest(nil, m), true
		}
	case *TurnReply:
		if m != nil {
			return AppendTurnReply(nil, m), true
		}
	case *GameNotice:
		if m != nil {
			return AppendGameNotice(nil, m), true
		}
	case *GameEvent:
		if m != nil {
			return AppendGameEvent(nil, m), true
		}
	}
	return nil, false // nil pointers included: encoding/json writes null
}

// The fast decoders fill in m and report true, or leave m zero and report false when the
// strict decoder must decide. They check the form only; the header and the fields' limits
// are checked after them as after the strict decoder.

func (m *TurnRequest) scan(data []byte) bool {
	s := newScan(data)
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "v":
			m.V = s.int()
			return sn.first(0)
		case "type":
			m.Type = s.string()
			return sn.first(1)
		case "game_id":
			m.GameID = s.string()
			return sn.first(2)
		case "game":
			m.Game = s.string()
			return sn.first(3)
		case "seat":
			m.Seat = s.int()
			return sn.first(4)
		case "seat_name":
			m.SeatName = s.string()
			return sn.first(5)
		case "ply":
			m.Ply = s.int()
			return sn.first(6)
		case "position":
			m.Position = s.string()
			return sn.first(7)
		case "legal":
			m.Legal = s.strings()
			return sn.first(8)
		case "moves":
			m.Moves = s.strings()
			return sn.first(9)
		case "clock":
			s.clock(&m.Clock)
			return sn.first(10)
		}
		return false // "observation" included: its raw JSON is the strict decoder's
	})
	if !s.end() {
		*m = TurnRequest{}
		return false
	}
	return true
}

func (s *scan) clock(c *Clock) {
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "move_ms":
			c.MoveMS = int64(s.int())
			return sn.first(0)
		case "remaining_ms":
			c.RemainingMS = int64(s.int())
			return sn.first(1)
		case "increment_ms":
			c.IncrementMS = int64(s.int())
			return sn.first(2)
		case "per_move":
			c.PerMove = s.bool()
			return sn.first(3)
		case "moves_to_go":
			c.MovesToGo = s.int()
			return sn.first(4)
		case "margin_ms":
			c.MarginMS = int64(s.int())
			return sn.first(5)
		case "ponder":
			c.Ponder = s.bool()
			return sn.first(6)
		}
		return false
	})
}

func (m *TurnReply) scan(data []byte) bool {
	s := newScan(data)
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "v":
			m.V = s.int()
			return sn.first(0)
		case "type":
			m.Type = s.string()
			return sn.first(1)
		case "game_id":
			m.GameID = s.string()
			return sn.first(2)
		case "ply":
			m.Ply = s.int()
			return sn.first(3)
		case "move":
			m.Move = s.string()
			return sn.first(4)
		case "info":
			m.Info = s.info()
			return sn.first(5)
		case "crashed":
			m.Crashed = s.string()
			return sn.first(6)
		}
		return false
	})
	if !s.end() {
		*m = TurnReply{}
		return false
	}
	return true
}

func (s *scan) info() *SearchInfo {
	in := new(SearchInfo)
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "depth":
			in.Depth = s.int()
			return sn.first(0)
		case "nodes":
			in.Nodes = int64(s.int())
			return sn.first(1)
		case "score":
			in.Score = s.float()
			return sn.first(2)
		case "pv":
			in.PV = s.strings()
			return sn.first(3)
		case "note":
			in.Note = s.string()
			return sn.first(4)
		}
		return false
	})
	return in
}

func (m *GameNotice) scan(data []byte) bool {
	s := newScan(data)
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "v":
			m.V = s.int()
			return sn.first(0)
		case "type":
			m.Type = s.string()
			return sn.first(1)
		case "game_id":
			m.GameID = s.string()
			return sn.first(2)
		case "game":
			m.Game = s.string()
			return sn.first(3)
		case "seat":
			m.Seat = s.int()
			return sn.first(4)
		case "players":
			m.Players = s.strings()
			return sn.first(5)
		case "position":
			m.Position = s.string()
			return sn.first(6)
		case "moves":
			m.Moves = s.strings()
			return sn.first(7)
		case "result":
			m.Result = s.string()
			return sn.first(8)
		case "reason":
			m.Reason = s.string()
			return sn.first(9)
		case "returns":
			m.Returns = s.floats()
			return sn.first(10)
		}
		return false
	})
	if !s.end() {
		*m = GameNotice{}
		return false
	}
	return true
}

func (m *GameEvent) scan(data []byte) bool {
	s := newScan(data)
	var sn seen
	s.object(func(key string) bool {
		switch key {
		case "v":
			m.V = s.int()
			return sn.first(0)
		case "type":
			m.Type = s.string()
			return sn.first(1)
		case "game_id":
			m.GameID = s.string()
			return sn.first(2)
		case "game":
			m.Game = s.string()
			return sn.first(3)
		case "players":
			m.Players = s.strings()
			return sn.first(4)
		case "ply":
			m.Ply = s.int()
			return sn.first(5)
		case "seat":
			m.Seat = s.int()
			return sn.first(6)
		case "move":
			m.Move = s.string()
			return sn.first(7)
		case "position":
			m.Position = s.string()
			return sn.first(8)
		case "result":
			m.Result = s.string()
			return sn.first(9)
		case "reason":
			m.Reason = s.string()
			return sn.first(10)
		case "detail":
			m.Detail = s.string()
			return sn.first(11)
		case "returns":
			m.Returns = s.floats()
			return sn.first(12)
		}
		return false
	})
	if !s.end() {
		*m = GameEvent{}
		return false
	}
	return true
}

// checkHeader checks a decoded message's version and type, as the strict decoder does
// after decoding.
func checkHeader(h Header, checkType func(Header) error) error {
	if h.V != Version {
		return fmt.Errorf("%w: version %d, want %d", ErrMalformed, h.V, Version)
	}
	return checkType(h)
}

// wantType is the check of a message of one type.
func wantType(want string) func(Header) error {
	return func(got Header) error {
		if got.Type != want {
			return fmt.Errorf("%w: type %q, want %q", ErrMalformed, got.Type, want)
		}
		return nil
	}
}
