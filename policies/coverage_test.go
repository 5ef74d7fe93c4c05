package policies_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// registryChecks returns the checks the registry asks of the policy entry
// with the given parameters.
func registryChecks(t testing.TB, entry string, settings []string) simtest.Checks {
	t.Helper()
	e, err := policies.Lookup(entry)
	if err != nil {
		t.Fatal(err)
	}
	var p any
	if e.Params != nil {
		p = e.Params()
		if err := params.SetAll(p, settings); err != nil {
			t.Fatalf("%s %v: %v", entry, settings, err)
		}
	}
	inv := e.Invariants(p)
	return simtest.Checks{MaxOpen: inv.MaxOpen, PromiseOnWait: inv.PromiseOnWait}
}

// oracleEntries are the entries some differential oracle compares with
// the engine: those of oracle_diff_test.go, oracle_more_test.go and
// oracle_accuracy_test.go, the Maui oracle's, the Slurm oracle's and the
// two-tier oracle's.
func oracleEntries() map[string]bool {
	m := map[string]bool{mauiOracleEntry: true, slurmOracleEntry: true}
	for _, list := range [][]oraclePolicy{oraclePolicies, morePolicies, accuracyPolicies} {
		for _, p := range list {
			m[p.entry] = true
		}
	}
	for _, name := range ttEntries {
		m[name] = true
	}
	return m
}

// coverageGaps lists what the tests lack for e: golden cases (a
// goldenPolicies row with testdata/<row>/*.golden files), a property-test
// row, a differential oracle, and what `schedsweep list` prints of it (a
// one-line summary; TestRegistry checks the parameters' docs).
func coverageGaps(e policies.Entry, golden, property []goldenPolicy, oracles map[string]bool) []string {
	var gaps []string
	hasGolden := false
	for _, gp := range golden {
		if gp.entry != e.Name {
			continue
		}
		if files, _ := filepath.Glob(filepath.Join("testdata", gp.name, "*.golden")); len(files) > 0 {
			hasGolden = true
		}
	}
	if !hasGolden {
		gaps = append(gaps, "no golden cases (a goldenPolicies row with testdata/<row>/*.golden)")
	}
	hasRow := false
	for _, gp := range property {
		hasRow = hasRow || gp.entry == e.Name
	}
	if !hasRow {
		gaps = append(gaps, "no property-test row (propertyPolicies)")
	}
	if !oracles[e.Name] {
		gaps = append(gaps, "no differential oracle (see oracleEntries)")
	}
	if e.Summary == "" || strings.ContainsAny(e.Summary, "\n\r") {
		gaps = append(gaps, "no one-line summary for `schedsweep list`")
	}
	return gaps
}

// TestEntryCoverage fails for any registered policy that the tests do not
// cover: a policy added to the registry needs goldens, a property-test
// row, an oracle and a listing line before go test passes.
func TestEntryCoverage(t *testing.T) {
	oracles := oracleEntries()
	for _, e := range policies.Entries() {
		for _, gap := range coverageGaps(e, goldenPolicies, propertyPolicies, oracles) {
			t.Errorf("policy %s: %s", e.Name, gap)
		}
	}
}

// TestEntryCoverageCatchesGaps: an entry the tests know nothing of has
// every gap, so TestEntryCoverage would fail for it.
func TestEntryCoverageCatchesGaps(t *testing.T) {
	bare := policies.Entry{Name: "untested-policy"}
	if got := coverageGaps(bare, goldenPolicies, propertyPolicies, oracleEntries()); len(got) != 4 {
		t.Errorf("gaps of an untested entry: got %q; want 4", got)
	}
	if _, err := os.Stat(filepath.Join("testdata", "easy")); err != nil {
		t.Skip("the golden files are absent")
	}
	easy, _ := policies.Lookup("easy")
	if got := coverageGaps(easy, goldenPolicies, propertyPolicies, oracleEntries()); len(got) != 0 {
		t.Errorf("gaps of easy: got %q; want none", got)
	}
}

// TestInvariantsMatchTables: the checks every golden and property row
// asks for are the registry's for its entry and parameters, so Verify
// checks what the entry declares.
func TestInvariantsMatchTables(t *testing.T) {
	for _, gp := range propertyPolicies {
		if diff := cmp.Diff(gp.checks, registryChecks(t, gp.entry, gp.params)); diff != "" {
			t.Errorf("%s: the table's checks differ from the registry's (-table +registry):\n%s", gp.name, diff)
		}
	}
}

// TestRegister: a duplicate or incomplete entry is refused.
func TestRegister(t *testing.T) {
	easy, _ := policies.Lookup("easy")
	noModel := easy
	noModel.Name, noModel.Model = "no-model", 0
	noInv := easy
	noInv.Name, noInv.Invariants = "no-invariants", nil
	tests := []struct {
		e    policies.Entry
		want string
	}{
		{easy, `register policy "easy": the name is taken`},
		{policies.Entry{New: easy.New}, "empty name"},
		{policies.Entry{Name: "no-new"}, `register policy "no-new": no constructor`},
		{noModel, `register policy "no-model": no machine model`},
		{noInv, `register policy "no-invariants": no invariants`},
	}
	n := len(policies.Entries())
	for _, tc := range tests {
		if err := policies.Register(tc.e); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Register(%q): got %v; want an error containing %q", tc.e.Name, err, tc.want)
		}
	}
	if got := len(policies.Entries()); got != n {
		t.Errorf("refused entries were registered: %d entries, want %d", got, n)
	}
}

// TestSupports: the two-tier policies refuse a cluster with memory or
// GPUs, or with too many processors; the others take any cluster.
func TestSupports(t *testing.T) {
	tests := []struct {
		policy string
		c      sim.Resources
		want   string // a fragment of the error; empty: supported
	}{
		{"easy", simtest.Cluster(64, 1<<30), ""},
		{"maui", sim.Resources{8, 0, 2}, ""},
		{"measy", sim.Resources{320}, ""},
		{"measy", simtest.Cluster(320, 1<<30), `policy "measy": the two-tier machine has processors only; the cluster has`},
		{"keasy", sim.Resources{8, 0, 1}, `policy "keasy": the two-tier machine has processors only`},
		{"reasy", sim.Resources{1<<24 + 1}, `policy "reasy": the two-tier machine needs between 1 and 16777216 processors, not 16777217`},
		{"meazy", sim.Resources{8}, `unknown policy "meazy" (did you mean "measy"?)`},
	}
	for _, tc := range tests {
		err := policies.Supports(tc.policy, tc.c)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Supports(%s, %v): %v; want nil", tc.policy, tc.c, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Supports(%s, %v): got %v; want an error containing %q", tc.policy, tc.c, err, tc.want)
		}
	}
}
