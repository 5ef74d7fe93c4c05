# Summarises the CSV of `schedsweep tables --format csv` for the measy
# study as Markdown, in one of two modes.
#
# Default (--baseline easy): per workload, policy and metric, the gain over
# EASY, 100 × (1 − mean ÷ EASY's mean), at most and on average over the
# load factors, and the load factors where it is negative. The gains are of
# the means over the replicates, not means of per-replicate gains.
#
# -v mode=cost (--baseline keasy, MEASY at several migration costs, one
# load factor): per workload and metric, the dearest migration cost at which
# MEASY's mean is still below KEASY's, and the cheapest at which it is not.
BEGIN { FS = "," }
NR == 1 || $11 == "" { next }
mode == "cost" {
	if ($3 == "keasy") next
	c = $3 == "measy" ? 20 : $3
	sub(/^measy-/, "", c); sub(/s$/, "", c)
	k = $1 SUBSEP $4
	if (!(k in seen)) { seen[k] = 1; order[++keys] = k; below[k] = "none"; above[k] = "none" }
	if ($11 < 1 && (below[k] == "none" || c + 0 > below[k] + 0)) { below[k] = c; rb[k] = $11 }
	if ($11 >= 1 && (above[k] == "none" || c + 0 < above[k] + 0)) { above[k] = c; ra[k] = $11 }
	next
}
$3 == "easy" { next }
{
	k = $1 SUBSEP $3 SUBSEP $4
	g = 100 * (1 - $11)
	if (!(k in n)) { order[++keys] = k; top[k] = g }
	n[k]++
	sum[k] += g
	if (g > top[k]) top[k] = g
	if (g < 0) worse[k] = worse[k] (worse[k] == "" ? "" : ", ") $2
}
END {
	if (mode == "cost") {
		print "| workload | metric | MEASY still below KEASY up to (s) | ÷ keasy there | MEASY at or above KEASY from (s) | ÷ keasy there |"
		print "| --- | --- | --- | --- | --- | --- |"
		for (i = 1; i <= keys; i++) {
			k = order[i]
			split(k, f, SUBSEP)
			printf "| %s | %s | %s | %s | %s | %s |\n", f[1], f[2], below[k], (below[k] == "none" ? "–" : sprintf("%.2f", rb[k])),
				above[k], (above[k] == "none" ? "–" : sprintf("%.2f", ra[k]))
		}
		exit
	}
	print "| workload | policy | metric | gain over EASY: most (%) | mean (%) | load factors | worse than EASY at |"
	print "| --- | --- | --- | --- | --- | --- | --- |"
	for (i = 1; i <= keys; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		printf "| %s | %s | %s | %.1f | %.1f | %d | %s |\n", f[1], f[2], f[3], top[k], sum[k] / n[k], n[k], (worse[k] == "" ? "none" : worse[k])
	}
}
