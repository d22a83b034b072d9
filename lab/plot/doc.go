// Package plot writes simple line charts as standalone SVG documents, such as the learning
// curves (win rate against game number) that training writes beside its weights.
//
// It needs nothing beyond the standard library and no fonts: text is placed using an
// estimate of glyph widths, which is close enough for tick labels and a legend. The output
// depends only on the chart, byte for byte, so that charts can serve as golden files.
//
// Each series gets a colour from the Okabe–Ito palette, which stays distinct for the
// common forms of colour blindness; past seven series the colours repeat with a dash
// pattern. The y axis is fixed by Chart.YMin and Chart.YMax when given and otherwise
// covers the data with a small margin; the x axis covers the data exactly. Ticks fall on
// multiples of 1, 2 or 5 times a power of ten.
package plot
