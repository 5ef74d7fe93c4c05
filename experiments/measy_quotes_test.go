package experiments_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// measyQuotes are the phrases of README.md's measy section that quote
// figures/measy-gains.md and figures/measy-breakeven.md, compared with
// the README's runs of white space (line breaks, indents) as one space.
// In each, {…}
// names a number of those files:
//
//	{gain WORKLOAD POLICY METRIC most|mean|worse}: the gain over EASY at
//	its largest or on average over the load factors (as printed), or the
//	load factors where the policy is worse than EASY;
//	{cost WORKLOAD METRIC below|above}: the dearest migration cost (s)
//	at which MEASY is still below KEASY, or the cheapest at which it is
//	not, with thousands separators; below-ratio and above-ratio, MEASY ÷
//	KEASY there.
var measyQuotes = []string{
	"| up to {gain jann measy response_mean@h most} %, mean {gain jann measy response_mean@h mean} % |",
	"jann-max70 up to {gain jann-max70 measy response_mean@h most} %, mean {gain jann-max70 measy response_mean@h mean} %; " +
		"feitelson up to {gain feitelson measy response_mean@h most} %, mean {gain feitelson measy response_mean@h mean} %",
	"({gain jann measy response_mean@h mean} against 23.1 %)",
	"| up to {gain jann measy bounded_slowdown_mean most} %, mean {gain jann measy bounded_slowdown_mean mean} % |",
	"jann-max70 up to {gain jann-max70 measy bounded_slowdown_mean most} %, mean {gain jann-max70 measy bounded_slowdown_mean mean} %; " +
		"feitelson up to {gain feitelson measy bounded_slowdown_mean most} %, mean {gain feitelson measy bounded_slowdown_mean mean} %",
	"MEASY ÷ KEASY 0.87 at 3,000 s, {cost jann response_mean@h below-ratio} at {cost jann response_mean@h below} s, " +
		"{cost jann response_mean@h above-ratio} at {cost jann response_mean@h above} s: the break-even is about {cost jann response_mean@h below} s " +
		"(slowdown: between {cost jann bounded_slowdown_mean below} and {cost jann bounded_slowdown_mean above} s)",
	"feitelson: {cost feitelson response_mean@h below-ratio} at {cost feitelson response_mean@h below} s, " +
		"{cost feitelson response_mean@h above-ratio} at {cost feitelson response_mean@h above} s, " +
		"break-even between {cost feitelson response_mean@h below} and {cost feitelson response_mean@h above} s; " +
		"jann-max70: {cost jann-max70 response_mean@h below-ratio} at {cost jann-max70 response_mean@h below} s, " +
		"{cost jann-max70 response_mean@h above-ratio} at {cost jann-max70 response_mean@h above} s",
	"jann-full: both beat EASY at every load, MEASY ahead of KEASY everywhere; break-even between {cost jann-full response_mean@h below} and {cost jann-full response_mean@h above} s",
	"KEASY falls behind EASY in response at {gain feitelson-full keasy response_mean@h worse} and MEASY at {gain feitelson-full measy response_mean@h worse} (within the intervals); " +
		"break-even between {cost feitelson-full response_mean@h below} and {cost feitelson-full response_mean@h above} s",
	"gives a mean gain of {gain jann measy response_mean@h mean} %",
	"between the old setting ({gain jann-max70 measy response_mean@h mean} %, REASY",
	"from between {cost jann-max70 response_mean@h below} and {cost jann-max70 response_mean@h above} s (`jann-max70`) to about {cost jann response_mean@h below} s.",
}

// TestMeasyQuotes checks that README.md quotes the measy summaries as they
// are: experiments/figures.sh rewrites figures/measy-gains.md and
// figures/measy-breakeven.md from the measy run (measy-summary.awk), and
// this test fails when a phrase of measyQuotes, with their numbers put in,
// is not in the README, so prose left behind by a new run, or a number
// changed by hand, is caught without running the study.
func TestMeasyQuotes(t *testing.T) {
	readme := strings.Join(strings.Fields(readText(t, "README.md")), " ")
	vals := map[string]string{}
	for _, r := range mdRows(t, "figures/measy-gains.md", 7) {
		k := "gain " + r[0] + " " + r[1] + " " + r[2]
		vals[k+" most"], vals[k+" mean"], vals[k+" worse"] = r[3], r[4], r[6]
	}
	for _, r := range mdRows(t, "figures/measy-breakeven.md", 6) {
		k := "cost " + r[0] + " " + r[1]
		vals[k+" below"], vals[k+" below-ratio"] = thousands(r[2]), r[3]
		vals[k+" above"], vals[k+" above-ratio"] = thousands(r[4]), r[5]
	}
	field := regexp.MustCompile(`\{[^}]*\}`)
	for _, q := range measyQuotes {
		var missing []string
		want := field.ReplaceAllStringFunc(q, func(m string) string {
			v, ok := vals[m[1:len(m)-1]]
			if !ok {
				missing = append(missing, m)
			}
			return v
		})
		if len(missing) > 0 {
			t.Errorf("quote %q: the summaries have no %s", q, strings.Join(missing, ", "))
			continue
		}
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q (from the summaries in figures/); bring the measy prose in line with them", want)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// mdRows returns the body rows of the Markdown table in path, each of n
// trimmed cells.
func mdRows(t *testing.T, path string, n int) [][]string {
	t.Helper()
	var out [][]string
	for i, l := range strings.Split(readText(t, path), "\n") {
		if !strings.HasPrefix(l, "| ") || i < 2 {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != n {
			t.Fatalf("%s:%d: %d cells; want %d", path, i+1, len(cells), n)
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		out = append(out, cells)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no table rows", path)
	}
	return out
}

// thousands writes a whole number of seconds with thousands separators,
// as the README does; anything else ("none") as it is.
func thousands(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1000 {
		return s
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}
