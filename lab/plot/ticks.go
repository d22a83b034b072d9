package plot

import (
	"math"
	"strconv"
	"strings"
)

// maxTicks bounds the ticks of an axis, whatever rounding does to the step.
const maxTicks = 50

// scale is an axis: the range it covers and the step between its ticks, mult × 10^exp
// with mult 1, 2 or 5.
type scale struct {
	lo, hi    float64
	step      float64
	mult, exp int
}

// tick is a tick mark and its label.
type tick struct {
	v     float64
	label string
}

// widen returns a range that can be drawn: a range that is empty, or too narrow for its
// magnitude to tell ticks apart in float64, becomes its middle ±10% (±1 around zero).
func widen(lo, hi float64) (float64, float64) {
	span := hi - lo // may overflow to +Inf, which is wide enough
	if span > 1e-9*max(math.Abs(lo), math.Abs(hi)) && span > 1e-100 {
		return lo, hi
	}
	mid := lo/2 + hi/2
	pad := math.Abs(mid) / 10
	if pad < 1e-100 {
		pad = 1
	}
	return mid - pad, mid + pad
}

// niceScale returns the axis covering lo to hi with about target ticks on the multiples
// of a nice step inside it, and never fewer than half the target or two.
func niceScale(lo, hi float64, target int) scale {
	lo, hi = widen(lo, hi)
	raw := (hi/2 - lo/2) / float64(target) * 2
	exp := int(math.Floor(math.Log10(raw)))
	norm := raw / math.Pow10(exp)
	mult := 1
	switch {
	case norm < 1.5:
		mult = 1
	case norm < 3:
		mult = 2
	case norm < 7:
		mult = 5
	default:
		exp++
	}
	s := scale{lo: lo, hi: hi, mult: mult, exp: exp}
	s.setStep()
	// Rounding the step up can leave a narrow range with too few ticks; a notch or two
	// smaller always gives enough.
	for range 2 {
		if s.count() >= max(2, (target+1)/2) {
			break
		}
		switch s.mult {
		case 5:
			s.mult = 2
		case 2:
			s.mult = 1
		default:
			s.mult, s.exp = 5, s.exp-1
		}
		s.setStep()
	}
	return s
}

func (s *scale) setStep() {
	s.step = float64(s.mult) * math.Pow10(s.exp)
	if math.IsInf(s.step, 0) { // a range near the largest floats
		s.mult, s.exp, s.step = 1, 308, 1e308
	}
}

// bounds returns the multipliers of the step of the first and last ticks.
func (s scale) bounds() (first, last float64) {
	return math.Ceil(s.lo/s.step - 1e-9), math.Floor(s.hi/s.step + 1e-9)
}

// count returns the number of ticks.
func (s scale) count() int {
	first, last := s.bounds()
	if !(last >= first) {
		return 0
	}
	return int(min(last-first+1, maxTicks))
}

// ticks returns the multiples of the step from lo to hi, labelled exactly: a tick's value
// is an integer times 10^exp, so its label is written from that integer rather than from
// the float, which would show rounding noise such as 0.30000000000000004.
func (s scale) ticks() []tick {
	first, _ := s.bounds()
	ts := make([]tick, s.count())
	fixedLen, sciLen := 0, 0
	for i := range ts {
		k := first + float64(i)
		v := k * s.step
		if v == 0 {
			v = 0 // not -0
		}
		n := int64(k) * int64(s.mult)
		ts[i] = tick{v: v, label: fixed(n, s.exp)}
		fixedLen = max(fixedLen, len(ts[i].label))
		sciLen = max(sciLen, len(scientific(n, s.exp)))
	}
	// Plain numbers read best; exponents are for labels that would be long without.
	if fixedLen > 6 && sciLen < fixedLen {
		for i := range ts {
			ts[i].label = scientific(int64(first+float64(i))*int64(s.mult), s.exp)
		}
	}
	return ts
}

// fixed writes n × 10^exp with exactly max(0, -exp) decimals, so that the labels of an
// axis line up: "0.0", "0.5", "1.0".
func fixed(n int64, exp int) string {
	if n == 0 && exp >= 0 {
		return "0"
	}
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	d := strconv.FormatInt(n, 10)
	if exp >= 0 {
		return sign + d + strings.Repeat("0", exp)
	}
	places := -exp
	if len(d) <= places {
		d = strings.Repeat("0", places-len(d)+1) + d
	}
	return sign + d[:len(d)-places] + "." + d[len(d)-places:]
}

// scientific writes n × 10^exp as a short mantissa and exponent: "5e5", "1.5e6", "-2e-7".
func scientific(n int64, exp int) string {
	if n == 0 {
		return "0"
	}
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	d := strconv.FormatInt(n, 10)
	t := strings.TrimRight(d, "0")
	exp += len(d) - 1 // d × 10^exp is d[0].d[1:] × 10^(exp+len(d)-1)
	m := t[:1]
	if len(t) > 1 {
		m += "." + t[1:]
	}
	return sign + m + "e" + strconv.Itoa(exp)
}
