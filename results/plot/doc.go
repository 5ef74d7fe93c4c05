// Package plot draws figures of a sweep from its results files alone,
// never by simulating again: the user-aware figures of Tóth and Klusáček,
// "User-Aware Metrics for Measuring Quality of Parallel Job Schedules"
// (box plots of each user's violated-EET share and weighted tardiness per
// policy, Figure 6; heatmaps of violated EETs per user over time above the
// machine's utilization, Figure 7), the classic per-policy means of wait,
// response time and slowdown (Figure 5), metrics against the load
// factor for sweeps over load, the mean wait of each estimate-accuracy
// class of Rocchetti, Iturriaga and Nesmachnow's Penalty Scheduling Policy
// paper (2015, Table 3 and Figure 1), and processor utilization over time
// per policy beside the makespan bounds of Bode et al. (ALS 2000, Table 1,
// Figure 3); and the analyses of peer tools: paired differences between
// policies on the same replicates, distributions (ECDFs) of wait and
// slowdown, the queue over time, and metrics by job class (short/long ×
// narrow/wide). It draws with gonum.org/v1/plot and writes
// PNG, SVG or PDF, with the fonts embedded in SVG and PDF files.
//
// It reads what package results writes, under the names results gives
// (names.go) and the runner writes by:
// runs.parquet and users.parquet (or a sharded sweep's runs-I-of-N.parquet
// and users-I-of-N.parquet), and per run heatmap/…/part-KEY.parquet and
// utilization/…/part-KEY.parquet, and, for the figures of jobs (ECDF,
// Queue, JobClassMeans), jobs/…/part-KEY.parquet. It leaves the
// metrics and the file names to results and the choice of partitions to
// runner; it never prints.
//
// Gantt draws one run's schedule from its jobs file: a rectangle per job
// on processor rows that Pack chooses by first fit (the pool machine
// counts processors and never names them; gantt.go says how), with the
// processors in use above. GanttValues gives the packed jobs and Rects
// their rectangles, which results/report embeds in its HTML page.
//
// Start with Load, then a figure: Boxes, Means, Heatmap, LoadLines,
// Classes, Utilization, Paired, ECDF or Queue, each taking Options (which
// runs, which metric, what size) and returning a Figure to Save. Each
// figure's data comes from a function of its own, BoxValues, Points,
// HeatmapValues, ClassMeans (JobClassMeans for jobs by size),
// UtilizationValues, PairedDifferences, ECDFValues and QueueValues, which
// tests and other tools can check without looking at pixels. The data of
// the figures that also print as tables (ClassData, UtilizationData,
// ECDFData, QueueData) draw themselves (Figure), render their table
// (Table) and give their numbers as CSV records (CSV), so a caller wanting
// all three reads and computes once; PointsCSV and PairedCSV do the same
// for Means, LoadLines and Paired.
//
// Figures of runs of several workloads draw a row of panels per workload
// (Boxes, Means, LoadLines). Series are told apart by colour, and lines
// also by dash and mark, up to eight fills and 24 lines; a figure asked
// for more refuses with advice. What a figure cannot show but a reader
// should know (confidence intervals over fewer than three replicates) is
// in its Warnings, for the caller to print.
//
// A figure's policies are Run.Series: a policy that a sweep's vary axes
// give several runs per workload, load factor and replicate is drawn as
// one series per variant ("easy (policy_order=sjf)"), never pooled as if
// its variants were replicates.
//
// Columns are read by name and checked when a figure needs them, so
// results written before a column existed load, and the figure that needs
// it fails with an error wrapping ErrMissingColumn that names the file and
// the column.
package plot
