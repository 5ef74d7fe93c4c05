package plot

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"git.sr.ht/~sbinet/gg"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
)

// DPI is the resolution of PNG files: a figure 8 inches wide is 1200
// pixels wide.
const DPI = 150

// Errors of Write and Save.
var (
	// ErrFormat: the path does not end in .png, .svg or .pdf.
	ErrFormat = errors.New("unsupported figure format")
	// ErrTooSmall: the figure is too small for its panels' axes and text.
	ErrTooSmall = errors.New("figure too small")
)

// Figure is a drawing of one or more gonum plots on a grid of panels.
// Panels of one column share the horizontal extent of their data areas,
// and panels of one row the vertical one, so that stacked plots with the
// same x range line up.
type Figure struct {
	// Title is drawn above the panels, and below it Notes, in a smaller
	// type and wrapped to the figure's width: what the marks summarise,
	// what was left out.
	Title string
	Notes []string
	// Panels is row-major; a nil panel leaves its cell empty.
	Panels [][]*plot.Plot
	// Heights are the relative heights of the rows' data areas, Widths
	// the relative widths of the columns; nil means equal.
	Heights, Widths []float64
	// Width and Height are the size Save writes.
	Width, Height vg.Length
	// Warnings say what a reader of the figure may be misled by and the
	// figure cannot show, such as confidence intervals over two
	// replicates. The figure is drawn all the same; the caller decides
	// whether and where to tell the user.
	Warnings []string

	heatmaps []*plotter.HeatMap // drawn as images in PNG files
}

// withLegend returns a figure of p with title and notes, and with legend
// beside p unless it is nil.
func withLegend(title string, notes []string, p *plot.Plot, legend *legendPanel, w, h vg.Length) *Figure {
	f := &Figure{Title: title, Notes: notes, Panels: [][]*plot.Plot{{p}}, Width: w, Height: h}
	if legend != nil {
		f.Panels[0] = append(f.Panels[0], legend.p)
		f.Widths = []float64{(w - legend.width).Points(), legend.width.Points()}
	}
	return f
}

// legendPanel is a panel of nothing but a legend, drawn from the top of
// the data area of its row, and the width it needs.
type legendPanel struct {
	p     *plot.Plot
	width vg.Length
}

func newLegend() *legendPanel {
	p := plot.New()
	p.HideAxes()
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = pad
	p.Legend.Padding = vg.Points(3)
	return &legendPanel{p: p}
}

// add adds an entry.
func (l *legendPanel) add(name string, thumbs ...plot.Thumbnailer) {
	l.p.Legend.Add(name, thumbs...)
	lg := &l.p.Legend
	l.width = max(l.width, lg.ThumbnailWidth+lg.TextStyle.Width(" "+name)+3*pad)
}

// padding between panels and around the figure.
const pad = vg.Length(6)

// Draw draws f on c. Rows share the height left by the title, the notes
// and the axes in the proportions of Heights, so that a row's data area
// gets its share whatever its axes take; columns share the width in the
// proportions of Widths, axes included. Axis labels longer than their
// side are wrapped into lines (in copies of the plots). A panel left no
// room for its data is not drawn; Write and Save report it.
func (f *Figure) Draw(c draw.Canvas) {
	for _, pl := range f.layout(c) {
		if pl.fits() {
			pl.p.Draw(pl.c)
		}
	}
}

// placed is a copy of a panel's plot and the canvas it is drawn on.
type placed struct {
	p *plot.Plot
	c draw.Canvas
}

// minData is the smallest data area, each way, a panel is drawn with.
const minData = vg.Length(8)

func (pl placed) fits() bool {
	d := pl.p.DataCanvas(pl.c)
	return d.Max.X-d.Min.X >= minData && d.Max.Y-d.Min.Y >= minData
}

// layout draws f's title and notes on c and places its panels.
func (f *Figure) layout(c draw.Canvas) []placed {
	c = draw.Crop(c, pad, -pad, pad, -pad)
	if f.Title != "" {
		c = drawText(c, textStyle(13), f.Title)
	}
	for _, n := range f.Notes {
		c = drawText(c, textStyle(10), n)
	}
	if f.Title != "" || len(f.Notes) > 0 {
		c = draw.Crop(c, 0, 0, 0, -pad)
	}
	g := newPanelGrid(f, c)
	if g == nil {
		return nil
	}
	g.wrapLabels()
	g.margins()
	rows := len(g.panels)
	axes := make([]vg.Length, rows)
	total := vg.Length(rows-1) * pad
	for i := range rows {
		axes[i] = g.top[i] + g.bottom[i]
		total += axes[i]
	}
	if total < c.Max.Y-c.Min.Y { // else the axes fill the figure: keep the even split
		g.ys = split(c.Min.Y, c.Max.Y, f.Heights, rows, axes, true)
		g.wrapLabels()
		g.margins()
	}
	return g.place()
}

// panelGrid is the panels of a figure as layout places them on c: copies
// of f's panels (whose labels it rewraps), the bounds of each column (xs)
// and row (ys), and the widest margins of each column and row: the rows'
// heights are their data areas' shares plus their margins, and every panel
// is cropped to its column's and row's margins so that the data areas line
// up.
type panelGrid struct {
	f                        *Figure
	c                        draw.Canvas
	panels                   [][]*plot.Plot
	xs, ys                   [][2]vg.Length
	left, right, bottom, top []vg.Length
}

// newPanelGrid returns f's panels on c split evenly, or nil if f has none.
func newPanelGrid(f *Figure, c draw.Canvas) *panelGrid {
	rows := len(f.Panels)
	cols := 0
	panels := make([][]*plot.Plot, rows)
	for i, r := range f.Panels {
		cols = max(cols, len(r))
		for _, p := range r {
			if p != nil {
				cp := *p
				p = &cp
			}
			panels[i] = append(panels[i], p)
		}
	}
	if rows == 0 {
		return nil
	}
	return &panelGrid{f: f, c: c, panels: panels,
		xs:   split(c.Min.X, c.Max.X, f.Widths, cols, nil, false),
		ys:   split(c.Min.Y, c.Max.Y, f.Heights, rows, nil, true),
		left: make([]vg.Length, cols), right: make([]vg.Length, cols),
		bottom: make([]vg.Length, rows), top: make([]vg.Length, rows)}
}

// cell is the canvas of the panel in row i, column j.
func (g *panelGrid) cell(i, j int) draw.Canvas {
	return draw.Canvas{Canvas: g.c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: g.xs[j][0], Y: g.ys[i][0]}, Max: vg.Point{X: g.xs[j][1], Y: g.ys[i][1]}}}
}

// wrapLabels wraps each panel's axis labels to its cell. gonum shrinks the
// data area to fit a long axis label on one line, and still does not fit
// it. Category labels get the width of their category in the data area.
func (g *panelGrid) wrapLabels() {
	for i, r := range g.panels {
		for j, p := range r {
			if p == nil {
				continue
			}
			cc := g.cell(i, j)
			orig := g.f.Panels[i][j]
			p.X.Label.Text = strings.Join(wrap(p.X.Label.TextStyle, orig.X.Label.Text, 0.9*(cc.Max.X-cc.Min.X)), "\n")
			p.Y.Label.Text = strings.Join(wrap(p.Y.Label.TextStyle, orig.Y.Label.Text, 0.9*(cc.Max.Y-cc.Min.Y)), "\n")
			if cats, ok := orig.X.Tick.Marker.(categories); ok && len(cats.labels) > 0 {
				d := p.DataCanvas(cc)
				p.X.Tick.Label = orig.X.Tick.Label
				p.X.Tick.Marker = cats.fit(&p.X.Tick.Label, (d.Max.X-d.Min.X)/vg.Length(len(cats.labels)))
			}
		}
	}
}

// margins finds the widest margins of each column and row.
func (g *panelGrid) margins() {
	clear(g.left)
	clear(g.right)
	clear(g.bottom)
	clear(g.top)
	for i, r := range g.panels {
		for j, p := range r {
			if p == nil {
				continue
			}
			cc := g.cell(i, j)
			d := p.DataCanvas(cc)
			g.left[j] = max(g.left[j], d.Min.X-cc.Min.X)
			g.right[j] = max(g.right[j], cc.Max.X-d.Max.X)
			g.bottom[i] = max(g.bottom[i], d.Min.Y-cc.Min.Y)
			g.top[i] = max(g.top[i], cc.Max.Y-d.Max.Y)
		}
	}
}

// place returns each panel with its cell cropped to its column's and
// row's margins.
func (g *panelGrid) place() []placed {
	var out []placed
	for i, r := range g.panels {
		for j, p := range r {
			if p == nil {
				continue
			}
			cc := g.cell(i, j)
			d := p.DataCanvas(cc)
			out = append(out, placed{p, draw.Crop(cc,
				g.left[j]-(d.Min.X-cc.Min.X), -(g.right[j] - (cc.Max.X - d.Max.X)),
				g.bottom[i]-(d.Min.Y-cc.Min.Y), -(g.top[i] - (cc.Max.Y - d.Max.Y)))})
		}
	}
	return out
}

// split divides [lo, hi] into n parts with pad between them, from the
// top down when down: part i gets fixed[i] (if fixed is not nil) plus its
// share, by the relative sizes rel (equal when nil), of what is left.
func split(lo, hi vg.Length, rel []float64, n int, fixed []vg.Length, down bool) [][2]vg.Length {
	total := 0.0
	avail := hi - lo - vg.Length(n-1)*pad
	for i := range n {
		total += weight(rel, i)
		if fixed != nil {
			avail -= fixed[i]
		}
	}
	avail = max(avail, 0)
	out := make([][2]vg.Length, n)
	at := lo
	if down {
		at = hi
	}
	for i := range n {
		size := avail * vg.Length(weight(rel, i)/total)
		if fixed != nil {
			size += fixed[i]
		}
		if down {
			out[i] = [2]vg.Length{at - size, at}
			at -= size + pad
		} else {
			out[i] = [2]vg.Length{at, at + size}
			at += size + pad
		}
	}
	return out
}

func weight(rel []float64, i int) float64 {
	if i < len(rel) {
		return rel[i]
	}
	return 1
}

// Format returns the format path's extension names, "png", "svg" or
// "pdf", or an error wrapping ErrFormat.
func Format(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg", ".pdf":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("%w: %q: want a file name ending in .png, .svg or .pdf", ErrFormat, path)
	}
}

// Write draws f at its Width and Height and writes it to w as format:
// "png" (at DPI dots per inch), "svg" or "pdf". SVG and PDF files carry
// the fonts their text is set in, so that they render alike on machines
// without those fonts (the SVG as a base64 TrueType @font-face, some
// 400 kB a face). A PDF names its creation time, so two PDFs of the same
// figure differ in that field; PNG and SVG files are the same bytes.
func (f *Figure) Write(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		// Images, the heatmap's cells and the colour bar, scale up with
		// nearest-neighbour interpolation: cells keep sharp edges.
		px := func(l vg.Length) int { return int(l.Dots(DPI) + 0.5) }
		img := image.NewRGBA(image.Rect(0, 0, px(f.Width), px(f.Height)))
		ctx := gg.NewContextForRGBA(img)
		ctx.SetLineCapButt()
		ctx.InvertY()
		ctx.SetInterpolator(xdraw.NearestNeighbor)
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI))}
	case "svg":
		c = vgsvg.NewWith(vgsvg.UseWH(f.Width, f.Height), vgsvg.EmbedFonts(true))
	case "pdf":
		c = vgpdf.New(f.Width, f.Height) // embeds its fonts by default
	default:
		return fmt.Errorf("%w: %q: want png, svg or pdf", ErrFormat, format)
	}
	// A PNG's or PDF's heatmap is one image, without the seams
	// antialiasing draws between cells drawn one by one; an SVG's cells
	// stay vectors.
	for _, h := range f.heatmaps {
		h.Rasterized = format != "svg"
	}
	for _, pl := range f.layout(draw.New(c)) {
		if !pl.fits() {
			return fmt.Errorf("%w: at %.3g × %.3g inches a panel has no room for its data; make the figure larger",
				ErrTooSmall, float64(f.Width/vg.Inch), float64(f.Height/vg.Inch))
		}
		pl.p.Draw(pl.c)
	}
	_, err := c.WriteTo(w)
	return err
}

// Save writes f to path, as PNG, SVG or PDF by its extension (see Format),
// through a temporary file in the same folder renamed into place.
func (f *Figure) Save(path string) error {
	format, err := Format(path)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return f.Write(w, format) }); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// textStyle is the plots' title style at size points, centred.
func textStyle(size float64) text.Style {
	sty := plot.New().Title.TextStyle
	sty.Font.Size = font.Length(size)
	sty.XAlign = draw.XCenter
	return sty
}

// drawText draws s at the top of c, centred and wrapped to c's width, and
// returns what is left of c below it.
func drawText(c draw.Canvas, sty text.Style, s string) draw.Canvas {
	sty.YAlign = draw.YTop
	for _, line := range wrap(sty, s, c.Max.X-c.Min.X) {
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y}, line)
		c = draw.Crop(c, 0, 0, 0, -sty.Height(line))
	}
	return c
}

// wrap breaks s into lines no wider than w where it can, at spaces; the
// line breaks s has stay.
func wrap(sty text.Style, s string, w vg.Length) []string {
	if s == "" || sty.Width(s) <= w {
		return strings.Split(s, "\n")
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		lines = append(lines, wrapLine(sty, para, w)...)
	}
	return lines
}

func wrapLine(sty text.Style, s string, w vg.Length) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case sty.Width(line+" "+word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// horizontalGrid returns grid lines at the y axis's ticks only: on a
// categorical x axis vertical lines would cut through the bars.
func horizontalGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	return g
}

// newPlot returns a plot with axis labels.
func newPlot(x, y string) *plot.Plot {
	p := plot.New()
	p.X.Label.Text = x
	p.Y.Label.Text = y
	return p
}

// swatch is a legend entry's filled square.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.color, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}})
}

// categories are the ticks of a categorical axis, label i at value i,
// whose labels fit the room each category has (see fit).
type categories struct {
	labels []string
}

// categoryAxis gives p's x axis the categories labels, at 0, 1, …, with
// half a category's room at either end.
func categoryAxis(p *plot.Plot, labels []string) {
	p.X.Tick.Marker = categories{labels: labels}
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
}

func (cs categories) Ticks(lo, hi float64) []plot.Tick {
	ts := make([]plot.Tick, len(cs.labels))
	for i, l := range cs.labels {
		ts[i] = plot.Tick{Value: float64(i), Label: l}
	}
	return ts
}

// fit returns the ticks of cs with each label wrapped, at spaces and
// after hyphens, to 90 % of room, a category's width; if a word is still
// wider than that, the labels stay whole and sty is turned to set them
// at 45° (90° when the categories are too close even for that), ending
// under their ticks, so that neighbours do not overlap.
func (cs categories) fit(sty *text.Style, room vg.Length) plot.Ticker {
	room *= 0.9
	out := make([]plot.Tick, len(cs.labels))
	for i, l := range cs.labels {
		var lines []string
		for _, para := range strings.Split(l, "\n") {
			lines = append(lines, wrapLine(*sty, strings.ReplaceAll(para, "-", "- "), room)...)
		}
		for k, line := range lines {
			lines[k] = strings.ReplaceAll(line, "- ", "-")
			if sty.Width(lines[k]) > room {
				// Neighbours at angle θ lie room·sin θ apart across
				// their lines.
				sty.Rotation = math.Pi / 4
				if float64(room)*math.Sin(sty.Rotation) < 1.2*float64(sty.Height("M")) {
					sty.Rotation = math.Pi / 2
				}
				sty.XAlign, sty.YAlign = draw.XRight, draw.YCenter
				return cs
			}
		}
		out[i] = plot.Tick{Value: float64(i), Label: strings.Join(lines, "\n")}
	}
	return plot.ConstantTicks(out)
}
