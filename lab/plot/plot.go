package plot

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Series is one line of a chart.
type Series struct {
	Name string    // legend label
	X, Y []float64 // points, same length; X increasing
}

// Chart is a line chart.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// YMin, YMax fix the y range when YMax > YMin (e.g. 0 and 100 for percentages);
	// otherwise the range is taken from the data with a margin.
	YMin, YMax    float64
	Width, Height int // pixels; 0 means 800 x 450
}

// Errors returned by WriteSVG for a chart it cannot draw, wrapped with the offending
// series where there is one.
var (
	ErrNoSeries       = errors.New("plot: chart has no series")
	ErrLengthMismatch = errors.New("plot: series X and Y lengths differ")
	ErrNotFinite      = errors.New("plot: value is NaN or infinite")
	ErrSize           = errors.New("plot: negative width or height")
)

const (
	defaultWidth  = 800
	defaultHeight = 450

	fontSize  = 12
	titleSize = 16
	// charWidth is the average advance of a sans-serif glyph at fontSize. SVG carries no
	// font metrics, so text is measured by this estimate.
	charWidth = 0.6 * fontSize
	rowHeight = 18 // legend rows

	// coordLimit keeps the pixel coordinates of points far outside a fixed y range
	// printable; such points are clipped anyway, and at this distance the clamp does not
	// visibly bend the segments that lead to them.
	coordLimit = 1e6
)

// palette is the Okabe–Ito palette without its yellow, which is too pale on white.
var palette = [...]string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000"}

// dashes tell series apart once the palette repeats.
var dashes = [...]string{"", "7 4", "2 3", "9 3 2 3"}

const fontFamily = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"

// WriteSVG writes the chart as an SVG document. It returns an error for a chart with no
// series, a series whose X and Y lengths differ, or non-finite values (NaN/Inf); it
// writes nothing then.
func WriteSVG(w io.Writer, c Chart) error {
	if err := validate(c); err != nil {
		return err
	}
	l := newLayout(c)
	e := &encoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.chart(c, l)
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("plot: write svg: %w", err)
	}
	return nil
}

func validate(c Chart) error {
	if len(c.Series) == 0 {
		return ErrNoSeries
	}
	if c.Width < 0 || c.Height < 0 {
		return fmt.Errorf("%w: %d x %d", ErrSize, c.Width, c.Height)
	}
	if !finite(c.YMin) || !finite(c.YMax) {
		return fmt.Errorf("y range %v to %v: %w", c.YMin, c.YMax, ErrNotFinite)
	}
	for i, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("series %d %q: %d x and %d y values: %w", i, s.Name, len(s.X), len(s.Y), ErrLengthMismatch)
		}
		for j := range s.X {
			if !finite(s.X[j]) || !finite(s.Y[j]) {
				return fmt.Errorf("series %d %q point %d (%v, %v): %w", i, s.Name, j, s.X[j], s.Y[j], ErrNotFinite)
			}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// layout is where everything goes, in pixels from the top left.
type layout struct {
	width, height  float64
	left, top      float64 // corner of the plot area
	pw, ph         float64 // size of the plot area
	x, y           scale
	xTicks, yTicks []tick
	legendX        float64
	legend         []string // shown names, truncated to fit; nil for no legend
	more           int      // series left out of a legend too long for the plot's height
}

func newLayout(c Chart) *layout {
	l := &layout{width: defaultWidth, height: defaultHeight}
	if c.Width > 0 {
		l.width = float64(c.Width)
	}
	if c.Height > 0 {
		l.height = float64(c.Height)
	}

	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for j := range s.X {
			xlo, xhi = min(xlo, s.X[j]), max(xhi, s.X[j])
			ylo, yhi = min(ylo, s.Y[j]), max(yhi, s.Y[j])
		}
	}
	if xlo > xhi { // no points at all
		xlo, xhi, ylo, yhi = 0, 1, 0, 1
	}
	if c.YMax > c.YMin {
		ylo, yhi = c.YMin, c.YMax
	} else {
		ylo, yhi = widen(ylo, yhi)
		pad := (yhi/2 - ylo/2) / 10 // 5% of the span, without overflowing
		ylo, yhi = max(ylo-pad, -math.MaxFloat64), min(yhi+pad, math.MaxFloat64)
	}

	// Vertical: title, plot, x tick labels, x label.
	l.top = 16
	if c.Title != "" {
		l.top += titleSize + 14
	}
	bottom := 8 + fontSize + 12.0
	if c.XLabel != "" {
		bottom += fontSize + 12
	}
	l.ph = max(l.height-l.top-bottom, 10)
	l.y = niceScale(ylo, yhi, clampInt(int(l.ph/45), 2, 10))
	l.yTicks = l.y.ticks()

	// Horizontal: y label, y tick labels, plot, legend.
	labelW := 0.0
	for _, t := range l.yTicks {
		labelW = max(labelW, textWidth(t.label))
	}
	l.left = 12 + labelW + 10
	if c.YLabel != "" {
		l.left += fontSize + 10
	}
	right := 30.0
	l.legend, l.more = legendNames(c.Series, l.width, l.ph)
	if l.legend != nil {
		w := 0.0
		for _, n := range l.legend {
			w = max(w, textWidth(n))
		}
		right = max(right, 16+26+w+12)
	}
	l.pw = max(l.width-l.left-right, 10)
	l.legendX = l.left + l.pw + 16
	l.x = niceScale(xlo, xhi, clampInt(int(l.pw/90), 2, 10))
	l.xTicks = l.x.ticks()
	return l
}

// legendNames returns the names to show in the legend, shortened to fit a column of at
// most 30% of the chart's width, and how many series did not fit the plot's height. A
// chart whose series are all unnamed has no legend.
func legendNames(series []Series, width, ph float64) ([]string, int) {
	named := false
	for _, s := range series {
		named = named || s.Name != ""
	}
	if !named {
		return nil, 0
	}
	maxRunes := max(int((0.3*width-42)/charWidth), 4)
	rows := max(int(ph/rowHeight), 1)
	n, more := len(series), 0
	if n > rows {
		n, more = rows-1, n-rows+1
	}
	names := make([]string, n)
	for i := range names {
		names[i] = truncate(series[i].Name, maxRunes)
	}
	return names, more
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n-1 {
			return strings.TrimRight(s[:j], " ") + "…"
		}
		i++
	}
	return s
}

func textWidth(s string) float64 { return float64(utf8.RuneCountInString(s)) * charWidth }

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }

// px and py map data to pixels. Halving before subtracting keeps ranges near the largest
// floats from overflowing.
func (l *layout) px(v float64) float64 {
	return clampCoord(l.left + (v/2-l.x.lo/2)/(l.x.hi/2-l.x.lo/2)*l.pw)
}

func (l *layout) py(v float64) float64 {
	return clampCoord(l.top + l.ph - (v/2-l.y.lo/2)/(l.y.hi/2-l.y.lo/2)*l.ph)
}

func clampCoord(v float64) float64 { return min(max(v, -coordLimit), coordLimit) }

// encoder writes SVG to a buffered writer, whose first error sticks and is reported by
// Flush.
type encoder struct {
	w   *bufio.Writer
	buf []byte // scratch for numbers
}

func (e *encoder) str(s string) { e.w.WriteString(s) }

// text writes s escaped for XML text or a quoted attribute value.
func (e *encoder) text(s string) { xml.EscapeText(e.w, []byte(s)) }

// num writes a coordinate or size rounded to a tenth of a pixel.
func (e *encoder) num(v float64) { e.tenths(int64(math.Round(v * 10))) }

func (e *encoder) tenths(q int64) {
	e.buf = appendTenths(e.buf[:0], q)
	e.w.Write(e.buf)
}

// appendTenths appends q/10 in decimal, without a trailing ".0".
func appendTenths(b []byte, q int64) []byte {
	if q < 0 {
		b = append(b, '-')
		q = -q
	}
	b = strconv.AppendInt(b, q/10, 10)
	if d := q % 10; d != 0 {
		b = append(b, '.', byte('0'+d))
	}
	return b
}

// elem writes an element's start tag with attributes given as name, value pairs; values
// are float64 (pixels), int or string (escaped). It writes "/>" when empty, ">" otherwise.
func (e *encoder) elem(name string, empty bool, attrs ...any) {
	e.str("<")
	e.str(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		e.str(" ")
		e.str(attrs[i].(string))
		e.str(`="`)
		switch v := attrs[i+1].(type) {
		case float64:
			e.num(v)
		case int:
			e.str(strconv.Itoa(v))
		case string:
			e.text(v)
		}
		e.str(`"`)
	}
	if empty {
		e.str("/>\n")
	} else {
		e.str(">")
	}
}

func (e *encoder) chart(c Chart, l *layout) {
	e.str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	e.elem("svg", false, "xmlns", "http://www.w3.org/2000/svg",
		"width", l.width, "height", l.height, "viewBox", "0 0 "+fmtTenths(l.width)+" "+fmtTenths(l.height),
		"font-family", fontFamily, "font-size", fontSize)
	e.str("\n")
	if c.Title != "" {
		e.str("<title>")
		e.text(c.Title)
		e.str("</title>\n")
	}
	e.elem("rect", true, "width", "100%", "height", "100%", "fill", "#ffffff")
	e.str("<defs>")
	e.elem("clipPath", false, "id", "plot-area")
	e.elem("rect", true, "x", l.left, "y", l.top, "width", l.pw, "height", l.ph)
	e.str("</clipPath></defs>\n")

	bottom, right := l.top+l.ph, l.left+l.pw
	e.elem("g", false, "stroke", "#e6e6e6", "stroke-width", 1, "shape-rendering", "crispEdges")
	e.str("\n")
	for _, t := range l.xTicks {
		x := l.px(t.v)
		e.elem("line", true, "x1", x, "y1", l.top, "x2", x, "y2", bottom)
	}
	for _, t := range l.yTicks {
		y := l.py(t.v)
		e.elem("line", true, "x1", l.left, "y1", y, "x2", right, "y2", y)
	}
	e.str("</g>\n")

	e.elem("g", false, "stroke", "#444444", "stroke-width", 1, "shape-rendering", "crispEdges")
	e.str("\n")
	e.elem("line", true, "x1", l.left, "y1", l.top, "x2", l.left, "y2", bottom)
	e.elem("line", true, "x1", l.left, "y1", bottom, "x2", right, "y2", bottom)
	for _, t := range l.xTicks {
		x := l.px(t.v)
		e.elem("line", true, "x1", x, "y1", bottom, "x2", x, "y2", bottom+5)
	}
	for _, t := range l.yTicks {
		y := l.py(t.v)
		e.elem("line", true, "x1", l.left-5, "y1", y, "x2", l.left, "y2", y)
	}
	e.str("</g>\n")

	e.elem("g", false, "fill", "#333333", "text-anchor", "middle")
	e.str("\n")
	for _, t := range l.xTicks {
		e.elem("text", false, "x", l.px(t.v), "y", bottom+8+fontSize)
		e.text(t.label)
		e.str("</text>\n")
	}
	e.str("</g>\n")
	e.elem("g", false, "fill", "#333333", "text-anchor", "end")
	e.str("\n")
	for _, t := range l.yTicks {
		e.elem("text", false, "x", l.left-8, "y", l.py(t.v), "dy", "0.32em")
		e.text(t.label)
		e.str("</text>\n")
	}
	e.str("</g>\n")

	e.elem("g", false, "clip-path", "url(#plot-area)", "fill", "none", "stroke-width", 2,
		"stroke-linejoin", "round", "stroke-linecap", "round")
	e.str("\n")
	for i, s := range c.Series {
		e.series(i, s, l)
	}
	e.str("</g>\n")

	e.legend(c, l)

	if c.Title != "" {
		e.elem("text", false, "x", l.width/2, "y", 16+titleSize, "text-anchor", "middle",
			"font-size", titleSize, "font-weight", "bold", "fill", "#222222")
		e.text(c.Title)
		e.str("</text>\n")
	}
	if c.XLabel != "" {
		e.elem("text", false, "x", l.left+l.pw/2, "y", l.height-12, "text-anchor", "middle", "fill", "#222222")
		e.text(c.XLabel)
		e.str("</text>\n")
	}
	if c.YLabel != "" {
		x, y := 12+fontSize-2.0, l.top+l.ph/2
		e.elem("text", false, "x", x, "y", y, "transform", "rotate(-90 "+fmtTenths(x)+" "+fmtTenths(y)+")",
			"text-anchor", "middle", "fill", "#222222")
		e.text(c.YLabel)
		e.str("</text>\n")
	}
	e.str("</svg>\n")
}

func style(i int) (colour, dash string) {
	return palette[i%len(palette)], dashes[i/len(palette)%len(dashes)]
}

// series draws one series: nothing for no points, a dot for one, a polyline otherwise.
// Points that land on the same tenth of a pixel as the previous one are left out, which
// keeps long series to a size that browsers draw quickly.
func (e *encoder) series(i int, s Series, l *layout) {
	colour, dash := style(i)
	switch len(s.X) {
	case 0:
		return
	case 1:
		e.elem("circle", false, "cx", l.px(s.X[0]), "cy", l.py(s.Y[0]), "r", 3.5, "fill", colour)
	default:
		e.str(`<polyline stroke="`)
		e.str(colour)
		if dash != "" {
			e.str(`" stroke-dasharray="`)
			e.str(dash)
		}
		e.str(`" points="`)
		var lastX, lastY int64
		written := 0
		for j := range s.X {
			qx := int64(math.Round(l.px(s.X[j]) * 10))
			qy := int64(math.Round(l.py(s.Y[j]) * 10))
			if written > 0 && qx == lastX && qy == lastY {
				continue
			}
			e.point(written, qx, qy)
			lastX, lastY = qx, qy
			written++
		}
		if written == 1 {
			// A lone point makes no line; a zero-length segment with round caps draws a dot.
			e.point(written, lastX, lastY)
		}
		e.str(`">`)
	}
	e.str("<title>")
	e.text(s.Name)
	if len(s.X) == 1 {
		e.str("</title></circle>\n")
	} else {
		e.str("</title></polyline>\n")
	}
}

func (e *encoder) point(n int, qx, qy int64) {
	if n > 0 {
		e.str(" ")
	}
	e.tenths(qx)
	e.str(",")
	e.tenths(qy)
}

func (e *encoder) legend(c Chart, l *layout) {
	if l.legend == nil {
		return
	}
	e.elem("g", false, "fill", "#222222")
	e.str("\n")
	x := l.legendX
	for i, name := range l.legend {
		y := l.top + 8 + float64(i)*rowHeight
		colour, dash := style(i)
		if len(c.Series[i].X) == 1 {
			e.elem("circle", true, "cx", x+10, "cy", y, "r", 3.5, "fill", colour)
		} else {
			attrs := []any{"x1", x, "y1", y, "x2", x + 20, "y2", y, "stroke", colour, "stroke-width", 2}
			if dash != "" {
				attrs = append(attrs, "stroke-dasharray", dash)
			}
			e.elem("line", true, attrs...)
		}
		e.elem("text", false, "x", x+26, "y", y, "dy", "0.32em")
		e.text(name)
		e.str("</text>\n")
	}
	if l.more > 0 {
		y := l.top + 8 + float64(len(l.legend))*rowHeight
		e.elem("text", false, "x", x+26, "y", y, "dy", "0.32em", "fill", "#666666")
		e.str("+" + strconv.Itoa(l.more) + " more")
		e.str("</text>\n")
	}
	e.str("</g>\n")
}

func fmtTenths(v float64) string { return string(appendTenths(nil, int64(math.Round(v*10)))) }
