package experiments_test

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// kthFacts are what README.md's slurm-whatif section says of the KTH-SP2
// log, computed from the log itself.
type kthFacts struct {
	jobs, users, groups, soloGroups, multiGroupUsers int
	maxReq                                           int64 // the largest requested time, s
	overHour, overDay, atMax, overrun                int   // jobs asking more than 1 h, more than 1 day, the largest; running past their request
	overHourWork, overDayWork                        float64
	runShare                                         float64 // mean run time over requested time
	top10Work, topTenthWork                          float64 // work share of the 10 heaviest users, and of the heaviest tenth
	offeredLoad                                      float64 // work ÷ (processors × span of submits)
	maxProcs                                         int64   // the header's
}

// readKTH computes kthFacts from the shared copy of the log, skipping the
// test when it is absent.
func readKTH(t *testing.T) kthFacts {
	t.Helper()
	f, err := os.Open("../../shared/workloads/KTH-SP2-1996-2.1-cln.swf.gz")
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("the shared copy of KTH-SP2 is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := workloads.NewSWFReader(f, "KTH-SP2-1996-2.1-cln.swf.gz", workloads.SWFOptions{})
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	var k kthFacts
	k.maxProcs = hdr.MaxProcs
	work := map[int64]float64{} // by user
	groupsOf := map[int64]map[int64]bool{}
	usersOf := map[int64]map[int64]bool{}
	var total, hourWork, dayWork, runShare float64
	first, last := int64(-1), int64(0)
	byReq := map[int64]int{} // jobs by requested time
	for {
		l, err := r.NextLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		k.jobs++
		if first < 0 {
			first = l.Submit
		}
		last = l.Submit
		w := float64(l.Runtime * l.AllocProcs)
		total += w
		work[l.User] += w
		if groupsOf[l.User] == nil {
			groupsOf[l.User] = map[int64]bool{}
		}
		groupsOf[l.User][l.Group] = true
		if usersOf[l.Group] == nil {
			usersOf[l.Group] = map[int64]bool{}
		}
		usersOf[l.Group][l.User] = true
		k.maxReq = max(k.maxReq, l.ReqTime)
		byReq[l.ReqTime]++
		if l.ReqTime > 3600 {
			k.overHour++
			hourWork += w
		}
		if l.ReqTime > 86400 {
			k.overDay++
			dayWork += w
		}
		if l.Runtime > l.ReqTime {
			k.overrun++
		}
		runShare += float64(l.Runtime) / float64(l.ReqTime)
	}
	for _, g := range groupsOf {
		if len(g) > 1 {
			k.multiGroupUsers++
		}
	}
	for _, u := range usersOf {
		if len(u) == 1 {
			k.soloGroups++
		}
	}
	k.users, k.groups = len(groupsOf), len(usersOf)
	k.overHourWork, k.overDayWork = hourWork/total, dayWork/total
	k.runShare = runShare / float64(k.jobs)
	shares := make([]float64, 0, len(work))
	for _, w := range work {
		shares = append(shares, w/total)
	}
	slices.SortFunc(shares, func(a, b float64) int { return cmp.Compare(b, a) })
	for i, s := range shares {
		if i < 10 {
			k.top10Work += s
		}
		if i < k.users/10 {
			k.topTenthWork += s
		}
	}
	k.offeredLoad = total / (float64(k.maxProcs) * float64(last-first))
	k.atMax = byReq[k.maxReq]
	return k
}

// TestSlurmWhatifFacts checks that README.md's slurm-whatif section and
// slurm/kth-sp2.conf say of the KTH-SP2 log what the log says: its jobs,
// users and groups (the accounts), its requested times, how its work is
// spread over users, its load, and the machine and limit the slurm.conf
// gives it.
func TestSlurmWhatifFacts(t *testing.T) {
	k := readKTH(t)
	pct := func(x float64) string { return fmt.Sprintf("%.1f %%", 100*x) }
	quotes := []string{
		fmt.Sprintf("%s jobs of %d users", thousands(fmt.Sprint(k.jobs)), k.users),
		fmt.Sprintf("its own offered load on %d processors is %.2f", k.maxProcs, k.offeredLoad),
		fmt.Sprintf("%d groups, %d of them of one user; %d users submit under more than one", k.groups, k.soloGroups, k.multiGroupUsers),
		fmt.Sprintf("ten users do %.0f %% of it (processor-seconds), the heaviest %d (a tenth of the users) %.0f %%",
			100*k.top10Work, k.users/10, 100*k.topTenthWork),
		fmt.Sprintf("Half of the jobs (%s) ask for more than an hour and do %s of the work; %d (%s) ask for more than a day and do %s of it",
			thousands(fmt.Sprint(k.overHour)), pct(k.overHourWork), k.overDay, pct(float64(k.overDay)/float64(k.jobs)), pct(k.overDayWork)),
		fmt.Sprintf("%d ask for the full %d hours", k.atMax, k.maxReq/3600),
		fmt.Sprintf("a job runs on average %.0f %% of what it asked for", 100*k.runShare),
		fmt.Sprintf("the largest requested time, %s s", thousands(fmt.Sprint(k.maxReq))),
	}
	readme := strings.Join(strings.Fields(readText(t, "README.md")), " ")
	for _, q := range quotes {
		if !strings.Contains(readme, q) {
			t.Errorf("README.md does not say %q, which the log says", q)
		}
	}
	if k.overrun != 0 {
		t.Errorf("%d jobs run past their requested time; the README says none does", k.overrun)
	}
	if 2*k.overHour < k.jobs-k.jobs/50 || 2*k.overHour > k.jobs+k.jobs/50 {
		t.Errorf("%d of %d jobs ask for more than an hour: not half, as the README says", k.overHour, k.jobs)
	}
	conf := readText(t, "slurm/kth-sp2.conf")
	wantNodes := fmt.Sprintf("NodeName=sp2n[001-%03d] CPUs=1 ", k.maxProcs)
	hms := fmt.Sprintf("MaxTime=%d:%02d:%02d ", k.maxReq/3600, k.maxReq%3600/60, k.maxReq%60)
	for _, want := range []string{wantNodes, hms} {
		if !regexp.MustCompile(`(?m)^[^#].*` + regexp.QuoteMeta(want)).MatchString(conf) {
			t.Errorf("slurm/kth-sp2.conf has no line with %q: the log's machine and longest request", want)
		}
	}
}

// TestSlurmWhatifGrid checks slurm-whatif.hcl's grid: twelve policies of
// type slurm, each named by the three values it sets (age weight,
// fairshare weight, bf_window), every other parameter the same as the
// baseline's, on the machine of slurm/kth-sp2.conf.
func TestSlurmWhatifGrid(t *testing.T) {
	exp := parse(t, "slurm-whatif.hcl")
	s := exp.Sweep
	name := regexp.MustCompile(`^age(\d+)k-fs(\d+)k?-bf(1h|1d|60h)$`)
	windows := map[string]sim.Time{"1h": 3600, "1d": 86400, "60h": 216000}
	var base *policies.SlurmParams
	seen := map[string]bool{}
	for _, p := range s.Policies {
		m := name.FindStringSubmatch(p.Name)
		prm, ok := p.Params.(*policies.SlurmParams)
		if m == nil || p.Type != "slurm" || !ok {
			t.Errorf("policy %q of type %q (%T): want slurm policies named ageNk-fsNk-bfW", p.Name, p.Type, p.Params)
			continue
		}
		age, _ := strconv.ParseInt(m[1], 10, 64)
		fs, _ := strconv.ParseInt(m[2], 10, 64)
		got := [3]int64{prm.WeightAge, prm.WeightFairshare, int64(prm.BfWindow)}
		if want := [3]int64{1000 * age, 1000 * fs, int64(windows[m[3]])}; got != want {
			t.Errorf("policy %s: age weight, fairshare weight, bf_window %v; its name says %v", p.Name, got, want)
		}
		if base == nil {
			base = prm
			if p.Name != "age1k-fs10k-bf1d" {
				t.Errorf("first policy %s; want the file as it stands, age1k-fs10k-bf1d", p.Name)
			}
		}
		rest, baseRest := *prm, *base
		rest.WeightAge, rest.WeightFairshare, rest.BfWindow = 0, 0, 0
		baseRest.WeightAge, baseRest.WeightFairshare, baseRest.BfWindow = 0, 0, 0
		if diff := gocmp.Diff(baseRest, rest); diff != "" {
			t.Errorf("policy %s differs from the baseline in more than its three values (-baseline +policy):\n%s", p.Name, diff)
		}
		seen[p.Name] = true
	}
	if len(seen) != 12 {
		t.Errorf("%d distinct policies; want 2 age weights × 2 fairshare weights × 3 windows = 12", len(seen))
	}
	if got := s.Cluster.Capacity[sim.Procs]; got != 100 {
		t.Errorf("cluster of %d processors; want KTH's 100", got)
	}
	if !slices.Equal(s.LoadFactors, []float64{1, 1.25}) {
		t.Errorf("load factors %v; want [1 1.25]", s.LoadFactors)
	}
}

// slurmWhatifQuotes are the phrases of README.md's slurm-whatif section
// that quote numbers, compared with the README's runs of white space as
// one space. In each, {SOURCE|LOAD|POLICY|COLUMN} is a cell of a table:
// SOURCE is a tables block of the README (tables:NAME) or a file of
// figures/ that schedsweep plot wrote; LOAD is its load factor column,
// "-" for a table without one; COLUMN a header, a ratio column named
// "÷ " and the column before it; COLUMN^ is the cell's first word (a
// mean without the job count after it).
var slurmWhatifQuotes = []string{
	"At the log's own load, turning fairshare off (`age1k-fs0-bf1d`) raises the median user's mean wait from {tables:slurm-whatif|1|age1k-fs10k-bf1d|median mean_wait (min)} to {tables:slurm-whatif|1|age1k-fs0-bf1d|median mean_wait (min)} min, the upper quartile from {tables:slurm-whatif|1|age1k-fs10k-bf1d|p75 mean_wait (min)} to {tables:slurm-whatif|1|age1k-fs0-bf1d|p75 mean_wait (min)} min, and the median user's share of violated EETs from {tables:slurm-whatif-eet|1|age1k-fs10k-bf1d|median veet_share (%)} % to {tables:slurm-whatif-eet|1|age1k-fs0-bf1d|median veet_share (%)} %; the mean wait over all jobs rises too, from {tables:slurm-whatif|1|age1k-fs10k-bf1d|wait_mean (min)} to {tables:slurm-whatif|1|age1k-fs0-bf1d|wait_mean (min)} min.",
	"A quarter more load turns the price of that protection into long waits for the heavy users' jobs: at load factor 1.25 the file's weights give a mean wait of {tables:slurm-whatif|1.25|age1k-fs10k-bf1d|wait_mean (min)} min against {tables:slurm-whatif|1.25|age1k-fs0-bf1d|wait_mean (min)} min without fairshare, a 95th percentile of {tables:slurm-whatif|1.25|age1k-fs10k-bf1d|wait_p95 (h)} h against {tables:slurm-whatif|1.25|age1k-fs0-bf1d|wait_p95 (h)} h, and a longest wait of {figures/slurm-whatif-wait.md|1.25|age1k-fs10k-bf1d|max} days against {figures/slurm-whatif-wait.md|1.25|age1k-fs0-bf1d|max}, while the median user waits {tables:slurm-whatif|1.25|age1k-fs10k-bf1d|median mean_wait (min)} min with fairshare against {tables:slurm-whatif|1.25|age1k-fs0-bf1d|median mean_wait (min)} without.",
	"At load factor 1.25 it halves the file's mean wait ({tables:slurm-whatif|1.25|age10k-fs10k-bf1d|wait_mean (min)} min, {tables:slurm-whatif|1.25|age10k-fs10k-bf1d|÷ wait_mean (min)} of it) and its 95th percentile ({tables:slurm-whatif|1.25|age10k-fs10k-bf1d|wait_p95 (h)} h), cuts the longest wait to {figures/slurm-whatif-wait.md|1.25|age10k-fs10k-bf1d|max} days, and keeps the median user at {tables:slurm-whatif|1.25|age10k-fs10k-bf1d|median mean_wait (min)} min; what it costs is the upper quartile of users' mean waits ({tables:slurm-whatif|1.25|age10k-fs10k-bf1d|p75 mean_wait (min)} min against {tables:slurm-whatif|1.25|age1k-fs10k-bf1d|p75 mean_wait (min)}) and the median user's violated EETs ({tables:slurm-whatif-eet|1.25|age10k-fs10k-bf1d|median veet_share (%)} % against {tables:slurm-whatif-eet|1.25|age1k-fs10k-bf1d|median veet_share (%)} %).",
	"At the log's own load the two weightings are close (mean wait {tables:slurm-whatif|1|age10k-fs10k-bf1d|wait_mean (min)} against {tables:slurm-whatif|1|age1k-fs10k-bf1d|wait_mean (min)} min, median user {tables:slurm-whatif|1|age10k-fs10k-bf1d|median mean_wait (min)} against {tables:slurm-whatif|1|age1k-fs10k-bf1d|median mean_wait (min)} min).",
	"With the file's weights at load factor 1.25, `bf1h` brings the mean wait down to {tables:slurm-whatif|1.25|age1k-fs10k-bf1h|wait_mean (min)} min and the 95th percentile to {tables:slurm-whatif|1.25|age1k-fs10k-bf1h|wait_p95 (h)} h, but the longest wait rises from {figures/slurm-whatif-wait.md|1.25|age1k-fs10k-bf1d|max} to {figures/slurm-whatif-wait.md|1.25|age1k-fs10k-bf1h|max} days, short wide jobs wait {figures/slurm-whatif-sizes-1.25.md|-|age1k-fs10k-bf1h|short wide^} min on average against {figures/slurm-whatif-sizes-1.25.md|-|age1k-fs10k-bf1d|short wide^}, and users' weighted tardiness sums to {tables:slurm-whatif-eet|1.25|age1k-fs10k-bf1h|sum weighted_tardiness (cpuh)} CPU-hours against {tables:slurm-whatif-eet|1.25|age1k-fs10k-bf1d|sum weighted_tardiness (cpuh)}.",
	"At load factor 1.25, `bf60h` gives a mean wait of {tables:slurm-whatif|1.25|age1k-fs10k-bf60h|wait_mean (min)} min against the day's {tables:slurm-whatif|1.25|age1k-fs10k-bf1d|wait_mean (min)}, and a longest wait of {figures/slurm-whatif-wait.md|1.25|age1k-fs10k-bf60h|max} days against {figures/slurm-whatif-wait.md|1.25|age1k-fs10k-bf1d|max}: only 1.3 % of the jobs ask for more than a day.",
	"- Read the per-user columns and the longest waits beside the means. The setting with the best mean here (`age10k-fs10k-bf1h`, {tables:slurm-whatif|1.25|age10k-fs10k-bf1h|÷ wait_mean (min)} of the file's mean wait at load factor 1.25) is also one that leaves a job waiting {figures/slurm-whatif-wait.md|1.25|age10k-fs10k-bf1h|max} days.",
	"- Weights matter only against each other, and age only up to `PriorityMaxAge`: with fairshare at ten times age, a job's age, however long, makes up at most a tenth of the fairshare factor's range, so a heavy user's job waits behind every job of a user whose fairshare factor is more than a tenth higher, for days under load. With the age weight equal to the fairshare weight, seven days of waiting (`PriorityMaxAge`) outweigh any fairshare difference: the longest wait at load factor 1.25 falls to {figures/slurm-whatif-wait.md|1.25|age10k-fs10k-bf1d|max} days, at little cost to the light users at the log's own load.",
}

// TestSlurmWhatifQuotes checks that every number README.md's slurm-whatif
// section quotes is the number of the table it comes from: the tables
// blocks (which schedsweep tables --check holds to the results) and the
// tables schedsweep plot wrote beside the figures. A rerun that moves a
// number leaves a phrase of slurmWhatifQuotes unmatched.
func TestSlurmWhatifQuotes(t *testing.T) {
	raw := readText(t, "README.md")
	readme := strings.Join(strings.Fields(raw), " ")
	sources := map[string]map[string]string{}
	cells := func(src string) map[string]string {
		if c, ok := sources[src]; ok {
			return c
		}
		var text string
		if name, ok := strings.CutPrefix(src, "tables:"); ok {
			start := strings.Index(raw, "<!-- tables:"+name+" ")
			end := strings.Index(raw, "<!-- /tables:"+name+" -->")
			if start < 0 || end < start {
				t.Fatalf("README.md has no block tables:%s", name)
			}
			text = raw[start:end]
		} else {
			text = readText(t, src)
		}
		sources[src] = tableCells(t, src, text)
		return sources[src]
	}
	field := regexp.MustCompile(`\{[^}]*\}`)
	for _, q := range slurmWhatifQuotes {
		var missing []string
		want := field.ReplaceAllStringFunc(q, func(m string) string {
			parts := strings.SplitN(m[1:len(m)-1], "|", 2)
			key, first := strings.CutSuffix(parts[1], "^")
			v, ok := cells(parts[0])[key]
			if !ok {
				missing = append(missing, m)
			}
			if f := strings.Fields(v); first && len(f) > 0 {
				v = f[0]
			}
			return v
		})
		if len(missing) > 0 {
			t.Errorf("quote %q: no cell %s", q, strings.Join(missing, ", "))
			continue
		}
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q (from the tables); bring the slurm-whatif prose in line with them", want)
		}
	}
}

// tableCells reads the Markdown tables of text (from src, for messages)
// into cells keyed "LOAD|POLICY|COLUMN", LOAD "-" in a table without a
// load factor column.
func tableCells(t *testing.T, src, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var header []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "|") {
			header = nil
			continue
		}
		row := strings.Split(strings.Trim(l, "|"), "|")
		for i := range row {
			row[i] = strings.TrimSpace(row[i])
		}
		switch {
		case header == nil:
			header = row
			for i := 1; i < len(header); i++ {
				if strings.HasPrefix(header[i], "÷") {
					header[i] = "÷ " + header[i-1]
				}
			}
			continue
		case strings.HasPrefix(row[0], "---"):
			continue
		case len(row) != len(header):
			t.Fatalf("%s: row %q has %d cells; its header %d", src, l, len(row), len(header))
		}
		load, policy := "-", ""
		for i, h := range header {
			switch h {
			case "load factor":
				load = row[i]
			case "policy":
				policy = row[i]
			}
		}
		for i, h := range header {
			out[load+"|"+policy+"|"+h] = row[i]
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no table", src)
	}
	return out
}
