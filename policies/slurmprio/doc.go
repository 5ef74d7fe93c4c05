// Package slurmprio computes Slurm's multifactor job priority (the
// priority/multifactor plugin of Slurm 22.05, the version Debian 12 ships):
// a weighted sum of the age, fairshare, job size, partition and QOS
// factors, each in [0, 1], truncated to an integer, plus schedsweep's extra
// estimate-accuracy factor (the PSP paper's classes, which its authors
// added to Slurm's multifactor plugin as one more factor).
//
// The policy "slurm" (package policies) asks a Calculator for the
// priority of every waiting job; the Calculator charges usage and
// recomputes priorities as Slurm's decay thread does, once every
// PriorityCalcPeriod, and sets a job's first priority when it is
// submitted. Start with New and Calculator.Update; params.go holds the
// parameters, calc.go the factors, tree.go the association tree and the
// two fairshare algorithms.
//
// Parameters carry Slurm's slurm.conf names in snake case
// (PriorityWeightAge is priority_weight_age). Every time is in seconds,
// whatever unit slurm.conf uses for it.
//
// # What it follows
//
// In src/plugins/priority/multifactor/priority_multifactor.c at tag
// slurm-22-05-8-1:
//   - set_priority_factors: the age factor, min(now − eligible,
//     PriorityMaxAge)/PriorityMaxAge; the job size factor, the mean of the
//     job's share of the nodes and of the CPUs, each 1 − share under
//     PriorityFavorSmall, clamped to [0, 1]; the partition factor,
//     PriorityJobFactor over the largest (norm_priority,
//     src/slurmctld/read_config.c); the QOS factor, priority over the
//     largest (norm_priority, src/common/assoc_mgr.c).
//   - _get_priority_internal: the weighted sum, each weighted factor
//     rounded to a double, raised to 1 (0 is the held priority),
//     capped at 2³²−1, truncated.
//   - _decay_thread, _apply_decay, _apply_new_usage, priority_p_job_end:
//     once a period every association's usage is multiplied by d^Δ, where
//     d = 1 − 0.693/PriorityDecayHalfLife (Slurm's approximation of
//     2^(−1/h)) and Δ the seconds since the last pass; then each running
//     job adds CPUs · δ · d^δ to its association and every one above it,
//     δ the seconds it ran since the last pass (or its start). A job that
//     ends adds its seconds since the last pass the same way.
//   - Classic fairshare (PriorityFlags=NO_FAIR_TREE):
//     _set_children_usage_efctv, _get_fairshare_priority, _set_usage_efctv,
//     priority_p_calc_fs_factor: F = 2^(−U_e/S_n), S_n the RawShares
//     ratios multiplied down the tree (_normalize_assoc_shares_traditional
//     in assoc_mgr.c), U_e of an account its share of the root's usage
//     taken at the start of the pass, U_e of a user U_n + (U_e,account −
//     U_n) · RawShares/level shares, computed at its first use after a pass.
//   - Fair Tree (fair_tree.c: fair_tree_decay, _calc_assoc_fs,
//     _calc_tree_fs): level fairshare S/U per sibling set, sorted highest
//     first (users before accounts on equal values), depth first; users'
//     ranks count down from the number of user associations, tied users
//     share a rank, the factor is rank/users. Slurm 22.05's
//     _count_tied_accounts never finds a tied account, so tied accounts
//     are ranked one after the other (the second's first user sharing the
//     first's last rank), not merged as the Fair Tree page describes; this
//     package does what the code does.
//
// # Simplifications
//
//   - No TRES: no PriorityWeightTRES, no TRESBillingWeights; usage is
//     CPU-seconds (Slurm's billable TRES without billing weights is the
//     CPU count), the CPUs being the job's request (Slurm counts whole
//     nodes' CPUs for an exclusive job).
//   - No nice, no site factor, no association priority factor
//     (PriorityWeightAssoc), no PriorityUsageResetPeriod, no QOS
//     UsageFactor or NoDecay, no FairShareDampeningFactor (1), and no
//     PriorityFlags but NO_FAIR_TREE (no ACCRUE_ALWAYS,
//     CALCULATE_RUNNING, DEPTH_OBLIVIOUS, INCR_ONLY, MAX_TRES,
//     NO_NORMAL_*, SMALL_RELATIVE_TO_TIME). No held jobs.
//   - The association tree has three levels: root, accounts (a job's SWF
//     group), users within accounts (a user seen with two accounts is two
//     associations). No sub-accounts, no Fairshare=parent, no partition
//     associations. An association appears when its first job is
//     submitted (Slurm's are made beforehand with sacctmgr): shares are
//     normalised again then, Fair Tree counts only the user associations
//     seen so far, and a new user association has Slurm's zeroed usage
//     record (classic effective usage 0, Fair Tree factor 0) until the
//     next pass. Usage starts at 0: no usage carried over from before.
//   - Siblings with equal level fairshare keep the order users first,
//     then by name as text (accounts' and users' numbers in decimal), the
//     order of Slurm's hierarchical association list; Slurm's own order
//     may differ.
//   - A job accrues age from its submission: Slurm's accrue_time is the
//     begin time when limits are not enforced
//     (acct_policy_handle_accrue_time in src/slurmctld/acct_policy.c),
//     and there are no begin times, dependencies, holds or accrue limits
//     here.
//   - Job size: the job's node count is its shape's, else 1 (Slurm's
//     default for a job that names no nodes); its CPUs are its request
//     before and after it starts. On the pool (Machine.Nodes 0) every
//     processor counts as a node and the job's node count is its
//     processor count: the factor is the CPU share alone.
//   - A job has one partition (no multi-partition priority_array).
//   - The decay thread's passes fall on multiples of PriorityCalcPeriod
//     from time 0 (Slurm's start from when slurmctld started and drift by
//     the pass's own duration). At a pass Slurm charges running jobs and
//     computes pending ones in job-list order, so a classic user's
//     effective usage may see part of the pass's usage; here all usage is
//     charged first.
//   - Usage is float64, Slurm's long double: near-ties may break
//     differently.
//   - The accuracy factor is not Slurm's: (class − 1)/4 of the job's
//     user's class (internal/psp, the mean accuracy of the user's last
//     psp.Window ended jobs over all accounts; a new user's class is 5),
//     weighted by priority_weight_accuracy and added after the QOS term.
//
// # Staleness
//
// Between passes a waiting job's priority is stale, as in Slurm: it is
// set at submission and recomputed only at each pass (Update). A pass
// missed because no call came at its time is run at the next call,
// charging usage boundary by boundary; priorities are computed as at the
// last boundary passed, for the jobs submitted by then.
package slurmprio
