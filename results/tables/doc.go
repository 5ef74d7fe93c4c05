// Package tables turns a results folder into the tables of a study: for
// each workload, a row per load factor and policy, and for each metric the
// mean over the replicates with its confidence interval, the ratio to a
// baseline policy and, where a paper file gives one, the paper's value.
// It renders them as Markdown and as CSV, and rewrites or checks the
// marked blocks of a Markdown file that hold them (Blocks, Replace), so
// that a README's tables come from the results and a check can tell when
// they no longer do.
//
// Metrics of runs.parquet are summarised over the replicates: the mean
// and the 95 % confidence interval of the mean, Student's t with N − 1
// degrees of freedom (plot.Point's Lo and Hi). Metrics of users.parquet
// pool the users of every replicate of a policy and load factor and give
// one aggregate of them (mean, median, upper quartile, sum, the users at
// 1, or the mean of one estimate-accuracy class), without an interval.
//
// BuildMakespans gives another kind of table, the makespans of each
// replicate under each policy beside two bounds on any makespan of its
// jobs (Bode et al. 2000, Table 1), computed from runs.parquet as
// plot.UtilizationValues computes them.
//
// It reads through package plot and never prints.
package tables
