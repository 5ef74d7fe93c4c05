package plot

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// colors are eight colours that readers with the common colour-vision
// deficiencies can tell apart (Okabe and Ito, 2008).
var colors = [...]color.RGBA{
	{0, 114, 178, 255},   // blue
	{230, 159, 0, 255},   // orange
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{86, 180, 233, 255},  // sky blue
	{213, 94, 0, 255},    // vermillion
	{240, 228, 66, 255},  // yellow
	{0, 0, 0, 255},       // black
}

// color8 returns the i-th colour of colors, which repeat after eight:
// series drawn as fills (bars, boxes) check maxFills first.
func color8(i int) color.Color { return colors[i%len(colors)] }

// dashPatterns are the lines' dashes: the first eight series are solid,
// the next eight dashed, the next eight dotted, so that a line keeps a
// colour and dash of its own up to maxLines series.
var dashPatterns = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}}

// shapes tell series' points apart without colour.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// The most series a figure tells apart: fills by colour alone, lines by
// colour and dash.
const (
	maxFills = len(colors)
	maxLines = len(colors) * 3
)

// lineStyle returns the style of series i's line, width wide: its colour
// and, from the ninth series on, its dashes.
func lineStyle(i int, width vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: color8(i), Width: width, Dashes: dashPatterns[(i/len(colors))%len(dashPatterns)]}
}

// shape returns series i's point shape: the shapes in turn, shifted by
// one for each eight series so that series i and i+8, of one colour,
// differ in shape as well as dash.
func shape(i int) draw.GlyphDrawer {
	return shapes[(i+i/len(colors))%len(shapes)]
}

// tooMany returns an error wrapping ErrSelection when n series of what
// ("policies", "load factors") are more than most, the most a figure
// tells apart, and advice on choosing fewer; nil otherwise.
func tooMany(n, most int, what, advice string) error {
	if n <= most {
		return nil
	}
	return fmt.Errorf("%w: %d %s are more than this figure can tell apart (at most %d, each its own colour and mark); %s",
		ErrSelection, n, what, most, advice)
}
