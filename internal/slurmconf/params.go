package slurmconf

// This file turns a slurm.conf's Priority* options, SchedulerType and
// SchedulerParameters into parameters of the policy "slurm"
// (policies.SlurmParams), every time in seconds.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Assignment sets one parameter of the policy "slurm" to Value, in the
// form internal/params.Set reads; Pos is the line it comes from (Line 0
// for a value the file implies by leaving an option out).
type Assignment struct {
	Name, Value string
	Pos         Pos
}

// weights maps the Priority weights slurm.conf sets to the policy's
// parameters. Slurm's default for each is 0.
var weights = []struct{ key, param string }{
	{"PriorityWeightAge", "priority_weight_age"},
	{"PriorityWeightFairshare", "priority_weight_fairshare"},
	{"PriorityWeightJobSize", "priority_weight_job_size"},
	{"PriorityWeightPartition", "priority_weight_partition"},
	{"PriorityWeightQOS", "priority_weight_qos"},
}

// schedulerParams maps the SchedulerParameters options the policy models
// to its parameters, with the unit slurm.conf gives them in (seconds
// unless minutes).
var schedulerParams = []struct {
	key, param string
	minutes    bool
	least      int64 // the smallest value Slurm accepts
}{
	{"default_queue_depth", "default_queue_depth", false, 0},
	{"sched_interval", "sched_interval", false, 0},
	{"bf_interval", "bf_interval", false, 1},
	{"bf_resolution", "bf_resolution", false, 1},
	{"bf_window", "bf_window", true, 1},
	{"bf_max_job_test", "bf_max_job_test", false, 1},
	{"bf_max_job_user", "bf_max_job_user", false, 0},
}

// Params returns the parameters of the policy "slurm" that the file sets,
// in the policy's names and units, and the warnings of that translation.
// Unlike the policy's own defaults, the priority weights are Slurm's:
// a weight the file leaves out is 0, and with PriorityType=priority/basic
// (Slurm's default) every weight is 0, so that jobs go by submission
// order (the policy breaks equal priorities by submit time, then job id,
// as sort_job_queue2 does). Priority times are whole minutes in Slurm (rounded up), bf_window
// is minutes; all become seconds. PriorityFlags=NO_FAIR_TREE (or
// DEPTH_OBLIVIOUS) selects the classic fairshare, else Fair Tree. Each
// partition's PriorityJobFactor goes to partition_job_factor.
func (c *Config) Params() ([]Assignment, []Warning, error) {
	var out []Assignment
	var warns []Warning
	warn := func(pos Pos, format string, args ...any) {
		warns = append(warns, Warning{pos, fmt.Sprintf(format, args...)})
	}
	file := Pos{File: c.Path}
	set := func(name, value string, pos Pos) { out = append(out, Assignment{name, value, pos}) }

	basic := true
	if p, ok := c.Options["PriorityType"]; ok {
		switch lower(p.Value) {
		case "priority/multifactor":
			basic = false
		case "priority/basic":
		default:
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: fmt.Errorf("not priority/basic or priority/multifactor")}
		}
	}
	for _, w := range weights {
		p, ok := c.Options[w.key]
		v := int64(0)
		pos := file
		if ok {
			n, err := parseUint(p.Value, 1<<32-1)
			if err != nil || n == unlimitedNum {
				return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: errOr(err, "must be a number, not unlimited")}
			}
			v, pos = n, p.Pos
		}
		if basic {
			v = 0
		}
		set(w.param, strconv.FormatInt(v, 10), pos)
	}
	if basic {
		pos := file
		if p, ok := c.Options["PriorityType"]; ok {
			pos = p.Pos
		}
		warn(pos, "PriorityType=priority/basic (Slurm's default) orders jobs by submission: every priority weight is set to 0")
	}
	for _, t := range []struct{ key, param string }{
		{"PriorityMaxAge", "priority_max_age"},
		{"PriorityDecayHalfLife", "priority_decay_half_life"},
		{"PriorityCalcPeriod", "priority_calc_period"},
	} {
		p, ok := c.Options[t.key]
		if !ok {
			continue
		}
		secs, unl, err := parseMinutes(p.Value)
		switch {
		case err != nil:
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: err}
		case unl:
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: fmt.Errorf("UNLIMITED is not modelled for %s: give a time", p.Key)}
		case t.key == "PriorityCalcPeriod" && secs < 60:
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: fmt.Errorf("must be at least one minute, as Slurm requires")}
		case t.key == "PriorityMaxAge" && secs == 0:
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: fmt.Errorf("0 (every job at full age) is not modelled: give at least one minute")}
		}
		set(t.param, strconv.FormatInt(secs, 10), p.Pos)
	}
	if p, ok := c.Options["PriorityFavorSmall"]; ok {
		b, err := parseBool(p.Value)
		if err != nil {
			return nil, nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: err}
		}
		set("priority_favor_small", strconv.FormatBool(b), p.Pos)
	}
	fairshare, fpos := "fair_tree", file
	if p, ok := c.Options["PriorityFlags"]; ok {
		fpos = p.Pos
		var other []string
		for _, f := range strings.Split(p.Value, ",") {
			switch f = strings.ToUpper(strings.TrimSpace(f)); f {
			case "":
			case "NO_FAIR_TREE":
				fairshare = "classic"
			case "DEPTH_OBLIVIOUS":
				fairshare = "classic"
				warn(p.Pos, "PriorityFlags=DEPTH_OBLIVIOUS: its fairshare is not modelled; schedsweep assumes the classic one (NO_FAIR_TREE)")
			case "FAIR_TREE":
			default:
				other = append(other, f)
			}
		}
		if len(other) > 0 {
			slices.Sort(other)
			warn(p.Pos, "PriorityFlags %s: not modelled; schedsweep assumes them off", strings.Join(other, ", "))
		}
	}
	set("priority_fairshare", fairshare, fpos)
	if f := c.partitionFactors(); f != "" {
		set("partition_job_factor", f, c.Partitions[0].Pos)
	}
	if p, ok := c.Options["SchedulerType"]; ok && lower(p.Value) != "sched/backfill" {
		warn(p.Pos, "SchedulerType=%s: not modelled; schedsweep assumes sched/backfill", p.Value)
	}
	if err := c.schedulerParams(set, warn); err != nil {
		return nil, nil, err
	}
	c.priorityWarnings(warn)
	return out, warns, nil
}

func errOr(err error, text string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s", text)
}

// partitionFactors returns "name:factor,..." of every partition in file
// order, "" without partitions.
func (c *Config) partitionFactors() string {
	var b []string
	for _, p := range c.Partitions {
		b = append(b, fmt.Sprintf("%s:%d", p.Name, p.PriorityJobFactor))
	}
	return strings.Join(b, ",")
}

// schedulerItems returns the options of SchedulerParameters: each name in
// lower case, its value, and whether it has one.
func (c *Config) schedulerItems() (items [][2]string, p Pair) {
	p, ok := c.Options["SchedulerParameters"]
	if !ok {
		return nil, p
	}
	for _, item := range strings.Split(p.Value, ",") {
		if item = strings.TrimSpace(item); item != "" {
			name, value, _ := strings.Cut(item, "=")
			items = append(items, [2]string{lower(strings.TrimSpace(name)), value})
		}
	}
	return items, p
}

// schedulerIndex returns the index in schedulerParams of the option
// name, -1 if the policy does not model it.
func schedulerIndex(name string) int {
	for i, s := range schedulerParams {
		if s.key == name {
			return i
		}
	}
	return -1
}

// schedulerParams sets the modelled SchedulerParameters.
func (c *Config) schedulerParams(set func(name, value string, pos Pos), warn func(Pos, string, ...any)) error {
	items, p := c.schedulerItems()
	for _, it := range items {
		i := schedulerIndex(it[0])
		if i < 0 {
			continue
		}
		sp, value := schedulerParams[i], it[1]
		v, err := strconv.ParseInt(value, 10, 32)
		off := v == -1 && (sp.key == "bf_interval" || sp.key == "sched_interval") // Slurm's "never"
		if err != nil || v < sp.least && !off {
			return &Error{Pos: p.Pos, Key: p.Key, Value: p.Value,
				Err: fmt.Errorf("%s: %q is not a whole number from %d", sp.key, value, sp.least)}
		}
		switch {
		case sp.key == "bf_interval" && v == -1:
			warn(p.Pos, "SchedulerParameters bf_interval=-1 (no backfill) is not modelled; Slurm's default of 30 s is assumed")
			continue
		case sp.key == "sched_interval" && v == -1:
			warn(p.Pos, "SchedulerParameters sched_interval=-1 (no periodic main scheduling) is not modelled; Slurm's default of 60 s is assumed")
			continue
		}
		if sp.minutes {
			v *= 60
		}
		set(sp.param, strconv.FormatInt(v, 10), p.Pos)
	}
	return nil
}

// priorityWarnings warns of the priority options that change schedules
// but that the policy does not model.
func (c *Config) priorityWarnings(warn func(Pos, string, ...any)) {
	if p, ok := c.Options["PriorityWeightAssoc"]; ok && p.Value != "0" {
		warn(p.Pos, "PriorityWeightAssoc=%s: the association factor is not modelled; schedsweep assumes 0", p.Value)
	}
	if p, ok := c.Options["PriorityWeightTRES"]; ok && p.Value != "" {
		warn(p.Pos, "PriorityWeightTRES=%s: TRES factors are not modelled; schedsweep assumes none", p.Value)
	}
	if p, ok := c.Options["PriorityUsageResetPeriod"]; ok && lower(p.Value) != "none" {
		warn(p.Pos, "PriorityUsageResetPeriod=%s: usage resets are not modelled; schedsweep assumes NONE (usage only decays)", p.Value)
	}
	if p, ok := c.Options["FairShareDampeningFactor"]; ok && p.Value != "1" {
		warn(p.Pos, "FairShareDampeningFactor=%s: not modelled; schedsweep assumes 1", p.Value)
	}
	if p, ok := c.Options["PrioritySiteFactorPlugin"]; ok && lower(p.Value) != "site_factor/none" {
		warn(p.Pos, "PrioritySiteFactorPlugin=%s: not modelled; schedsweep assumes site_factor/none", p.Value)
	}
	tiers := map[int64]bool{}
	var list []string
	for _, p := range c.Partitions {
		tiers[p.PriorityTier] = true
		list = append(list, fmt.Sprintf("%s:%d", p.Name, p.PriorityTier))
	}
	if len(tiers) > 1 {
		warn(c.Partitions[0].Pos, "partitions have different PriorityTier (%s): tiers are not modelled; schedsweep orders the jobs of every partition by priority alone", strings.Join(list, ", "))
	}
}

// SchedulingOptions returns the options of the file that Params reads
// (Priority*, SchedulerType, SchedulerParameters) and only Params, sorted:
// what a run under another policy leaves unread.
func (c *Config) SchedulingOptions() []string {
	var out []string
	for k := range c.Options {
		if modelled[k] && (strings.HasPrefix(k, "Priority") || strings.HasPrefix(k, "Scheduler") || k == "FairShareDampeningFactor") {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
