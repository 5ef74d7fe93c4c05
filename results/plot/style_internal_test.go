package plot

import (
	"errors"
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot"
)

// TestSeriesStyles checks that every pair of the first maxLines series
// differs in colour or dashes, and in colour or shape, and that more are
// refused with advice.
func TestSeriesStyles(t *testing.T) {
	type look struct {
		c      color.Color
		dashes string
	}
	seen := map[look]int{}
	for i := range maxLines {
		s := lineStyle(i, 1)
		k := look{s.Color, fmt.Sprint(s.Dashes)}
		if j, ok := seen[k]; ok {
			t.Errorf("series %d and %d have the same colour and dashes", j, i)
		}
		seen[k] = i
		if i >= len(colors) && shape(i) == shape(i-len(colors)) {
			t.Errorf("series %d and %d have the same colour and shape", i-len(colors), i)
		}
	}
	if err := tooMany(maxLines, maxLines, "policies", "choose fewer"); err != nil {
		t.Errorf("%d series: %v", maxLines, err)
	}
	err := tooMany(maxLines+1, maxLines, "policies", "choose fewer with --policy")
	if !errors.Is(err, ErrSelection) || !strings.Contains(err.Error(), "25 policies") || !strings.Contains(err.Error(), "--policy") {
		t.Errorf("25 series: got %v; want ErrSelection with advice", err)
	}
}

func TestCategoriesFit(t *testing.T) {
	sty := plot.New().X.Tick.Label
	labels := []string{"fifo", "fairshare-fifo", "fairshare-backfill"}
	wide := sty.Width("fairshare-backfill") * 1.2
	cs := categories{labels: labels}

	// Room for every label: unchanged.
	s := sty
	got := cs.fit(&s, wide/0.9*1.01).Ticks(0, 2)
	if diff := cmp.Diff([]string{"fifo", "fairshare-fifo", "fairshare-backfill"}, tickLabels(got)); diff != "" || s.Rotation != 0 {
		t.Errorf("wide room (-want +got):\n%s (rotation %g)", diff, s.Rotation)
	}
	// Room for "fairshare-" only: broken after the hyphen.
	s = sty
	got = cs.fit(&s, sty.Width("fairshare-")*1.05/0.9).Ticks(0, 2)
	if diff := cmp.Diff([]string{"fifo", "fairshare-\nfifo", "fairshare-\nbackfill"}, tickLabels(got)); diff != "" || s.Rotation != 0 {
		t.Errorf("narrow room (-want +got):\n%s (rotation %g)", diff, s.Rotation)
	}
	// Not even room for "fairshare-": whole labels, turned.
	s = sty
	got = cs.fit(&s, sty.Width("fairs")).Ticks(0, 2)
	if diff := cmp.Diff(labels, tickLabels(got)); diff != "" || s.Rotation == 0 {
		t.Errorf("no room (-want +got):\n%s (rotation %g; want turned)", diff, s.Rotation)
	}
}

func tickLabels(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestPlainTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 2.7, []string{"0", "0.5", "1", "1.5", "2", "2.5"}},
		{0, 3400, []string{"0", "500", "1000", "1500", "2000", "2500", "3000"}},
		{0, 100, []string{"0", "20", "40", "60", "80", "100"}},
	} {
		got := tickLabels(plainTicks{}.Ticks(tc.lo, tc.hi))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ticks of [%g, %g] (-want +got):\n%s", tc.lo, tc.hi, diff)
		}
	}
}

func TestGroupDigits(t *testing.T) {
	for h, want := range map[float64]string{12.345: "12.35", 391.06: "391.1", 2346.76: "2,346.8", 249163.76: "249,164", 1234567: "1,234,567"} {
		if got := groupDigits(h); got != want {
			t.Errorf("groupDigits(%g) = %q; want %q", h, got, want)
		}
	}
}
