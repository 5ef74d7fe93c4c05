package plot_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/png" // image.DecodeConfig reads PNG
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/schedsweep/schedsweep/results/plot"
)

// checkImage checks that data is a PNG, SVG or PDF of w × h, and that an
// SVG or PDF embeds its font.
func checkImage(t *testing.T, name string, data []byte, w, h vg.Length) {
	t.Helper()
	switch filepath.Ext(name) {
	case ".png":
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || format != "png" {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		wantW, wantH := int(math.Round(w.Dots(plot.DPI))), int(math.Round(h.Dots(plot.DPI)))
		if cfg.Width != wantW || cfg.Height != wantH {
			t.Errorf("%s: %d × %d pixels; want %d × %d", name, cfg.Width, cfg.Height, wantW, wantH)
		}
	case ".svg":
		s := string(data)
		if !strings.HasPrefix(s, "<?xml") && !strings.HasPrefix(s, "<svg") || !strings.Contains(s, "</svg>") {
			t.Fatalf("%s: not an SVG: %.80q", name, s)
		}
		size := fmt.Sprintf(`width="%gpt" height="%gpt"`, w.Points(), h.Points())
		if !strings.Contains(s, size) {
			t.Errorf("%s: want %s in the header %.200q", name, size, s)
		}
		// The text names Liberation Serif, which the file must carry:
		// a machine without it would set the text in another font, of
		// other widths, and clip it.
		if !strings.Contains(s, "font-family:Liberation Serif") || !strings.Contains(s, `@font-face{`) ||
			!strings.Contains(s, `font-family:"Liberation Serif"`) || !strings.Contains(s, "data:font/ttf;") {
			t.Errorf("%s: the SVG does not embed the font its text names", name)
		}
	case ".pdf":
		s := string(data)
		if !strings.HasPrefix(s, "%PDF-") {
			t.Fatalf("%s: not a PDF: %.40q", name, s)
		}
		box := fmt.Sprintf("/MediaBox [0 0 %.2f %.2f]", w.Points(), h.Points())
		if !strings.Contains(s, box) {
			t.Errorf("%s: want %s", name, box)
		}
		if !strings.Contains(s, "/FontFile2") {
			t.Errorf("%s: the PDF does not embed its font", name)
		}
	}
}

func TestRenderEveryKind(t *testing.T) {
	r := load(t, writeFixture(t))
	out := t.TempDir()
	w, h := 6*vg.Inch, 4*vg.Inch
	for _, tc := range []struct {
		name string
		draw func(*plot.Results, plot.Options) (*plot.Figure, error)
		opt  plot.Options
		w, h vg.Length // if not the default of this test
	}{
		{"boxes-veet", plot.Boxes, plot.Options{}, 0, 0},
		{"boxes-tardiness", plot.Boxes, plot.Options{Metrics: []string{"weighted_tardiness"}, Selection: plot.Selection{LoadFactors: []float64{1}}}, 0, 0},
		{"means", plot.Means, plot.Options{}, 0, 0},
		{"means-one-load", plot.Means, plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}}}, 0, 0},
		{"load", plot.LoadLines, plot.Options{Metrics: []string{"wait_mean"}}, 0, 0},
		{"heatmap", plot.Heatmap, plot.Options{Selection: plot.Selection{Run: heatmapRun}}, 8 * vg.Inch, 6 * vg.Inch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h := w, h
			if tc.w > 0 {
				w, h = tc.w, tc.h
			}
			tc.opt.Width, tc.opt.Height = w, h
			f, err := tc.draw(r, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{".png", ".svg", ".pdf"} {
				path := filepath.Join(out, tc.name+ext)
				if err := f.Save(path); err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				checkImage(t, path, data, w, h)
			}
		})
	}
	if dir := os.Getenv("SCHEDSWEEP_PLOT_DIR"); dir != "" { // to look at them
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(out, e.Name()))
			os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644)
		}
	}
}

func TestTooSmall(t *testing.T) {
	r := load(t, writeFixture(t))
	f, err := plot.Heatmap(r, plot.Options{Selection: plot.Selection{Run: heatmapRun}, Width: 3 * vg.Inch, Height: 2 * vg.Inch})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "heatmap.png")
	if err := f.Save(path); !errors.Is(err, plot.ErrTooSmall) || !strings.Contains(err.Error(), "3 × 2 inches") {
		t.Errorf("a heatmap of 3 × 2 inches: got %v; want ErrTooSmall", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("Save(%s) failed but left a file", path)
	}
}

func TestSaveRefusesOtherFormats(t *testing.T) {
	r := load(t, writeFixture(t))
	f, err := plot.Means(r, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "means.eps")
	if err := f.Save(path); !errors.Is(err, plot.ErrFormat) {
		t.Errorf("Save(%s): got %v; want ErrFormat", path, err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("Save(%s) failed but left a file", path)
	}
}
