package policies

import (
	"github.com/schedsweep/schedsweep/policies/slurmprio"
	"github.com/schedsweep/schedsweep/sim"
)

// SlurmParams are the parameters of the policy "slurm": the scheduler's
// SchedulerParameters and the multifactor priority's Priority* options,
// named after slurm.conf in snake case. Every time is in seconds, whatever
// unit slurm.conf uses (bf_window is minutes there).
type SlurmParams struct {
	DefaultQueueDepth int      `hcl:"default_queue_depth,optional" doc:"SchedulerParameters default_queue_depth: jobs the main scheduler tests per pass; Slurm's default 100"`
	SchedInterval     sim.Time `hcl:"sched_interval,optional" doc:"SchedulerParameters sched_interval in seconds: the main scheduler also runs this often; Slurm's default 60"`
	BfInterval        sim.Time `hcl:"bf_interval,optional" doc:"SchedulerParameters bf_interval in seconds: the backfill scheduler runs this often; 0: at every scheduling pass (not a Slurm value); Slurm's default 30"`
	BfResolution      sim.Time `hcl:"bf_resolution,optional" doc:"SchedulerParameters bf_resolution in seconds: backfill plans start and end times at this granularity; Slurm's default 60"`
	BfWindow          sim.Time `hcl:"bf_window,optional" doc:"SchedulerParameters bf_window in seconds (minutes in slurm.conf): how far ahead backfill plans; 0: no limit (not a Slurm value); Slurm's default 1 day"`
	BfMaxJobTest      int      `hcl:"bf_max_job_test,optional" doc:"SchedulerParameters bf_max_job_test: jobs backfill tests per pass; 0: no limit (not a Slurm value); Slurm's default 500"`
	BfMaxJobUser      int      `hcl:"bf_max_job_user,optional" doc:"SchedulerParameters bf_max_job_user: jobs of one user backfill tests per pass; 0: no limit, Slurm's default"`
	slurmprio.Params
}

// DefaultSlurmParams returns Slurm 22.05's defaults (slurm.conf(5)).
func DefaultSlurmParams() *SlurmParams {
	return &SlurmParams{
		DefaultQueueDepth: 100,
		SchedInterval:     60,
		BfInterval:        30,
		BfResolution:      60,
		BfWindow:          24 * 3600,
		BfMaxJobTest:      500,
		Params:            slurmprio.Defaults(),
	}
}
