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

$ss run --quiet --force --out out/measy experiments/measy.hcl
for w in feitelson jann; do
	for m in response_mean bounded_slowdown_mean; do
		$ss plot load --ci --workload "$w" --policy easy,keasy,reasy,measy --metric "$m" \
			--out "$figs/measy-$w-$m.png" out/measy
	done
	$ss plot load --ci --workload "$w" --policy measy --metric migrations --out "$figs/measy-$w-migrations.png" out/measy
	$ss plot means --ci --workload "$w" --load 1.2 --metric response_mean,bounded_slowdown_mean \
		--policy keasy,measy,measy-120s,measy-480s,measy-900s,measy-1500s,measy-3000s \
		--out "$figs/measy-$w-cost.png" out/measy
	$ss plot load --ci --workload "$w-full" --policy easy,keasy,measy --metric bounded_slowdown_mean \
		--out "$figs/measy-$w-full.png" out/measy
done
