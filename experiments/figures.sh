#!/usr/bin/env bash
# Regenerates the figures of experiments/README.md from scratch: runs each
# study into out/ and draws its figures into experiments/figures/.
#
#   experiments/figures.sh [TRACE_DIR]
#
# TRACE_DIR holds wagap-2013.swf.gz (default ../shared/workloads); with no
# such file, the registered trace is used (schedsweep trace fetch wagap-2013).
set -euo pipefail
cd "$(dirname "$0")/.."
traces=${1:-../shared/workloads}
figs=experiments/figures
mkdir -p "$figs"
go build -o out/schedsweep ./cmd/schedsweep
ss=out/schedsweep

trace=wagap-2013
if [ -f "$traces/wagap-2013.swf.gz" ]; then
	trace=$(realpath "$traces/wagap-2013.swf.gz")
fi
$ss run --quiet --force --out out/toth2014 --var "trace=$trace" experiments/toth2014.hcl
$ss plot means --load 2 --out "$figs/toth2014-means.png" out/toth2014
$ss plot boxes --out "$figs/toth2014-veet.png" out/toth2014
$ss plot boxes --metric weighted_tardiness --out "$figs/toth2014-weighted-tardiness.png" out/toth2014
$ss plot load --metric wait_mean --out "$figs/toth2014-wait-vs-load.png" out/toth2014
for p in fifo fairshare-fifo backfill fairshare-backfill; do
	$ss plot heatmap --policy "$p" --load 2 --out "$figs/toth2014-heatmap-$p.png" out/toth2014
done

# psp2016: the paper's four instances per scenario, then twenty to see how
# much of the picture is noise. Each classes command also writes its table.
$ss run --quiet --force --out out/psp2016 experiments/psp2016.hcl
$ss plot classes --out "$figs/psp2016-classes.png" out/psp2016 | tail -n +3 >"$figs/psp2016-classes.md"
$ss run --quiet --force --out out/psp2016-20 --var replicates=20 experiments/psp2016.hcl
$ss plot classes --out "$figs/psp2016-classes-20.png" out/psp2016-20 | tail -n +3 >"$figs/psp2016-classes-20.md"

# maui2000: five job mixes under PBS FIFO, Maui and Maui without backfill.
$ss run --quiet --force --out out/maui2000 experiments/maui2000.hcl
$ss plot means --metric makespan,utilization,wait_mean --out "$figs/maui2000-means.png" out/maui2000
$ss plot utilization --replicate 1 --out "$figs/maui2000-utilization.png" out/maui2000
# Each replicate's makespans and bounds, the table of experiments/README.md:
# the legends of these figures give them.
for k in 1 2 3 4 5; do
	$ss plot utilization --replicate "$k" --out "out/maui2000/utilization-$k.svg" out/maui2000
done
