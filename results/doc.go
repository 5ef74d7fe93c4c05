// Package results turns simulated schedules into numbers and files: metrics
// as pure functions over a run's outcomes, and the Parquet writers of a
// sweep's result tables. It reads sim types only; it never simulates, and
// it leaves the results folder's location, run keys, the parameter list
// and the choice of sweep axes to the runner. The names of the files inside
// a results folder live here (names.go), so that the runner writes and the
// readers (results/plot) find them by the same rules.
//
// Start with Summarize, the headline metrics cmd prints. A sweep records
// each run with:
//
//   - NewRunRow and UserRows, the run's rows of runs.parquet and
//     users.parquet (plain data, which the runner journals); a Trim in the
//     RunInfo, and UserRowsTrimmed, leave a warm-up and a cool-down share
//     of the jobs out of their statistics;
//   - WriteJobs, the run's jobs file, under the Hive directory PartitionDir
//     names for the run's sweep axes;
//   - WriteRuns and WriteUsers (or a UsersWriter, which streams), the
//     sweep's tables.
//
// A run on a machine of nodes (sim/nodes) also says where its jobs ran:
// PlacementOf finds the Placement in the run's model, WriteJobsOnNodes
// adds the nodes column (JobNodes, in Slurm's hostlist notation) to its
// jobs file, and GroupRows its rows of node_groups.parquet (WriteGroups,
// or a GroupsWriter), the utilization of each node group.
//
// ComputeEET adds the user-aware model of Tóth and Klusáček (JSSPP 2014):
// every job's expected end time under a CapacityRule, its tardiness, and
// each user's share of violated EETs and weighted tardiness. Hand its
// result to UserRows and WriteJobs for their EET columns (nil leaves them
// NULL). Violations and Utilization turn a run into the paper's heatmap
// and usage series per bucket of time; WriteHeatmap and WriteUtilization
// store them.
//
// Every file is written to a temporary name and renamed into place, and the
// same inputs give the same bytes. README.md describes the layout, every
// column and how to load the files in DuckDB, pandas, R and Polars.
package results
