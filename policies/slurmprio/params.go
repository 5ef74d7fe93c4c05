package slurmprio

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// Params are the multifactor knobs, named after slurm.conf's options.
// Times are in seconds.
type Params struct {
	WeightAge       int64 `hcl:"priority_weight_age,optional" doc:"PriorityWeightAge: weight of the age factor (time waiting, up to priority_max_age)"`
	WeightFairshare int64 `hcl:"priority_weight_fairshare,optional" doc:"PriorityWeightFairshare: weight of the fairshare factor"`
	WeightJobSize   int64 `hcl:"priority_weight_job_size,optional" doc:"PriorityWeightJobSize: weight of the job size factor"`
	WeightPartition int64 `hcl:"priority_weight_partition,optional" doc:"PriorityWeightPartition: weight of the partition factor (the partition's priority_job_factor over the largest)"`
	WeightQOS       int64 `hcl:"priority_weight_qos,optional" doc:"PriorityWeightQOS: weight of the QOS factor"`
	// WeightAccuracy is schedsweep's own factor, not Slurm's: the PSP
	// paper's accuracy class of the job's user, (class-1)/4.
	WeightAccuracy int64 `hcl:"priority_weight_accuracy,optional" doc:"weight of the estimate-accuracy factor of the PSP paper (not a Slurm option): (class-1)/4 of the user's accuracy class"`

	MaxAge        sim.Time `hcl:"priority_max_age,optional" doc:"PriorityMaxAge in seconds: the wait at which the age factor reaches 1; Slurm's default is 7 days"`
	FavorSmall    bool     `hcl:"priority_favor_small,optional" doc:"PriorityFavorSmall: the job size factor favours small jobs rather than large ones"`
	DecayHalfLife sim.Time `hcl:"priority_decay_half_life,optional" doc:"PriorityDecayHalfLife in seconds: usage decays by half over this time; 0: no decay; Slurm's default is 7 days"`
	CalcPeriod    sim.Time `hcl:"priority_calc_period,optional" doc:"PriorityCalcPeriod in seconds: usage is charged and priorities recomputed this often; Slurm's default is 5 minutes"`
	// Fairshare is the fairshare algorithm: "fair_tree", Slurm's default,
	// or "classic" (PriorityFlags=NO_FAIR_TREE).
	Fairshare string `hcl:"priority_fairshare,optional" doc:"fairshare algorithm: fair_tree (Slurm's default) or classic (PriorityFlags=NO_FAIR_TREE)"`
	// Shares gives the association tree's RawShares (sacctmgr's
	// Fairshare=) as "account:shares,account/user:shares", where account
	// is a job's SWF group number (field 13) and user its SWF user number
	// (field 12), both in decimal; unlisted associations have 1, Slurm's
	// default.
	Shares string `hcl:"fairshare_shares,optional" doc:"associations' RawShares as \"account:shares,account/user:shares,...\" with account = SWF group (field 13) and user = SWF user (field 12) in decimal; unlisted: 1"`
	// PartitionFactor gives partitions' PriorityJobFactor as
	// "name:factor,name:factor"; unlisted partitions have factor 1.
	PartitionFactor string `hcl:"partition_job_factor,optional" doc:"partitions' PriorityJobFactor as \"name:factor,...\"; unlisted partitions have 1"`
	// QOSPriority gives QOS priorities as "queue:priority,...", keyed by a
	// job's SWF queue number (field 15), which carries its QOS.
	QOSPriority string `hcl:"qos_priority,optional" doc:"QOS priorities as \"queue:priority,...\" by SWF queue number (field 15, where a sacct import puts the QOS); unlisted: 0"`
}

// Defaults returns Slurm 22.05's defaults: every weight 0 but age's
// (schedsweep's choice, so that the default priority is not flat: 1000),
// a maximum age and a half-life of 7 days, a calculation period of 5
// minutes, Fair Tree.
func Defaults() Params {
	return Params{
		WeightAge:     1000,
		MaxAge:        7 * 24 * 3600,
		DecayHalfLife: 7 * 24 * 3600,
		CalcPeriod:    300,
		Fairshare:     "fair_tree",
	}
}

// Machine is what the job size factor measures a job against.
type Machine struct {
	Procs int64 // processors of the cluster
	Nodes int   // nodes of the cluster; 0 on the pool
}

// config is Params checked and parsed.
type config struct {
	Params
	classic   bool
	shares    map[assocKey]int64 // RawShares by association
	partition map[string]float64 // PriorityJobFactor by partition name
	partMax   float64            // the largest listed PriorityJobFactor
	qos       map[int32]float64  // priority by SWF queue number
	qosMax    float64            // the largest listed QOS priority
}

// assocKey names an association: an account (user noUser) or a user
// within an account. SWF's unknown −1 is a valid account or user number.
type assocKey struct {
	account, user int32
}

// noUser is the user of an account association's key.
const noUser = math.MinInt32

// maxWeight is the largest PriorityWeight* Slurm accepts (a uint32).
const maxWeight = math.MaxUint32

// check validates p and parses its lists. Each fault names its parameter
// and, in a list, the entry.
func check(p Params) (*config, error) {
	c := &config{Params: p}
	weights := []struct {
		name string
		w    int64
	}{
		{"priority_weight_age", p.WeightAge},
		{"priority_weight_fairshare", p.WeightFairshare},
		{"priority_weight_job_size", p.WeightJobSize},
		{"priority_weight_partition", p.WeightPartition},
		{"priority_weight_qos", p.WeightQOS},
		{"priority_weight_accuracy", p.WeightAccuracy},
	}
	for _, w := range weights {
		if w.w < 0 || w.w > maxWeight {
			return nil, fmt.Errorf("parameter %q: %d is not in 0..%d", w.name, w.w, int64(maxWeight))
		}
	}
	if p.MaxAge <= 0 {
		return nil, fmt.Errorf("parameter \"priority_max_age\": %d is not a positive number of seconds", p.MaxAge)
	}
	if p.CalcPeriod <= 0 {
		return nil, fmt.Errorf("parameter \"priority_calc_period\": %d is not a positive number of seconds", p.CalcPeriod)
	}
	if p.DecayHalfLife < 0 {
		return nil, fmt.Errorf("parameter \"priority_decay_half_life\": %d is negative", p.DecayHalfLife)
	}
	switch p.Fairshare {
	case "fair_tree":
	case "classic":
		c.classic = true
	default:
		return nil, fmt.Errorf("parameter \"priority_fairshare\": %q is neither \"fair_tree\" nor \"classic\"", p.Fairshare)
	}
	var err error
	if c.shares, err = parseShares(p.Shares); err != nil {
		return nil, fmt.Errorf("parameter \"fairshare_shares\": %w", err)
	}
	if c.partition, c.partMax, err = parseFactors(p.PartitionFactor, 65533, func(s string) (string, error) {
		if s == "" {
			return "", fmt.Errorf("empty partition name")
		}
		return s, nil
	}); err != nil {
		return nil, fmt.Errorf("parameter \"partition_job_factor\": %w", err)
	}
	if c.qos, c.qosMax, err = parseFactors(p.QOSPriority, maxWeight, func(s string) (int32, error) {
		q, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, fmt.Errorf("queue %q is not a whole number", s)
		}
		return int32(q), nil
	}); err != nil {
		return nil, fmt.Errorf("parameter \"qos_priority\": %w", err)
	}
	return c, nil
}

// entries splits a "key:value,key:value" list into its entries, blanks
// around each trimmed; an empty list has none.
func entries(list string) []string {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	es := strings.Split(list, ",")
	for i := range es {
		es[i] = strings.TrimSpace(es[i])
	}
	return es
}

// splitEntry splits "key:value" and parses value as a whole number in
// 0..limit.
func splitEntry(e string, limit int64) (string, int64, error) {
	k, v, ok := strings.Cut(e, ":")
	if !ok {
		return "", 0, fmt.Errorf("entry %q: want key:value", e)
	}
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > limit {
		return "", 0, fmt.Errorf("entry %q: value %q is not a whole number in 0..%d", e, v, limit)
	}
	return k, n, nil
}

// parseFactors parses a "key:value,..." list whose keys key parses, and
// returns the values by key and the largest value (0 if none).
func parseFactors[K comparable](list string, limit int64, key func(string) (K, error)) (map[K]float64, float64, error) {
	m := map[K]float64{}
	largest := 0.0
	for _, e := range entries(list) {
		ks, v, err := splitEntry(e, limit)
		if err != nil {
			return nil, 0, err
		}
		k, err := key(ks)
		if err != nil {
			return nil, 0, fmt.Errorf("entry %q: %w", e, err)
		}
		if _, dup := m[k]; dup {
			return nil, 0, fmt.Errorf("entry %q: %q listed twice", e, ks)
		}
		m[k] = float64(v)
		largest = max(largest, float64(v))
	}
	return m, largest, nil
}

// parseShares parses fairshare_shares: "account:shares" or
// "account/user:shares" entries, account and user SWF numbers in decimal,
// shares in 0..2³²−1 (a RawShares is a uint32).
func parseShares(list string) (map[assocKey]int64, error) {
	m := map[assocKey]int64{}
	for _, e := range entries(list) {
		name, n, err := splitEntry(e, maxWeight)
		if err != nil {
			return nil, err
		}
		acct, user, isUser := strings.Cut(name, "/")
		k := assocKey{user: noUser}
		a, err := strconv.ParseInt(acct, 10, 32)
		if err != nil || a == noUser {
			return nil, fmt.Errorf("entry %q: account %q is not an SWF group number", e, acct)
		}
		k.account = int32(a)
		if isUser {
			u, err := strconv.ParseInt(user, 10, 32)
			if err != nil || u == noUser {
				return nil, fmt.Errorf("entry %q: user %q is not an SWF user number", e, user)
			}
			k.user = int32(u)
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("entry %q: %q listed twice", e, name)
		}
		m[k] = n
	}
	return m, nil
}
