// check.mjs reads a schedsweep results folder with three independent Parquet
// readers, DuckDB, hyparquet and Polars (nodejs-polars, the Node binding of
// the Rust engine Python's Polars runs on), and fails on anything a user
// loading the results would trip over.
//
//   node check.mjs DIR [--runs N] [--users N] [--jobs N]
//                      [--partition KEY=VALUE [--partition-jobs N]]
//
// DIR holds runs.parquet, users.parquet and jobs/**/*.parquet (Hive
// partitions). The counts, when given, are checked exactly; whether given or
// not, the files must agree with each other: jobs rows = sum(runs.jobs),
// sum(users.jobs) = sum(runs.jobs_measured), and runs.parquet's wait and
// bounded slowdown statistics equal DuckDB's avg and quantile_disc over each
// run's measured jobs. A run's measured jobs are those its warmup and
// cooldown columns keep: with n jobs in its jobs file (in submit order),
// rows ⌊warmup·n⌋ up to but not including n − ⌊cooldown·n⌋; every job
// without trimming. Status counts, statistics and user rows are checked
// over them, everything else over all jobs. DuckDB then
// recomputes what results/README.md defines from the jobs files alone:
// every job's wait, response, slowdowns and tardiness from its times, every
// run's status counts, makespan, utilizations, offered load and twelve
// statistics (and, in a sweep of target offered loads, that each run
// reached its target within 1 %), every user row, and, where the folder has them, every heatmap cell and
// utilization bucket; and, in a sweep with runs on nodes (its jobs files
// have the nodes column), node_groups.parquet against runs.parquet and
// each job's nodes against its status. --partition
// (default policy=easy) picks one Hive partition; its job count must equal
// the jobs of the runs it holds, and those runs must be the ones
// runs.parquet gives that parameter value. Every reader checks every
// column's name, DuckDB and Polars its type too, DuckDB and hyparquet the
// key-value metadata; Polars reads the jobs folder as the README's snippet
// does (a glob with Hive partitioning) and must count what DuckDB counts,
// in all and in the partition.
//
// Install the pinned readers beside this file first: npm install.
//
// Exit status 0 when every check passes, 1 with one line per failure, 2 on
// bad usage.
import { DuckDBInstance } from '@duckdb/node-api'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import pl from 'nodejs-polars'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

const usage = 'usage: node check.mjs DIR [--runs N] [--users N] [--jobs N] [--partition KEY=VALUE] [--partition-jobs N]'

function parseArgs(argv) {
  const opt = { partition: 'policy=easy' }
  const rest = [...argv]
  while (rest.length > 0) {
    const a = rest.shift()
    if (!a.startsWith('--')) {
      if (opt.dir !== undefined) usageError(`unexpected argument "${a}"`)
      opt.dir = a
      continue
    }
    const v = rest.shift()
    if (v === undefined) usageError(`${a} needs a value`)
    switch (a) {
    case '--runs': case '--users': case '--jobs': case '--partition-jobs': {
      if (!/^\d+$/.test(v)) usageError(`${a} "${v}" is not a count`)
      opt[a.slice(2).replace('-jobs', 'Jobs')] = BigInt(v)
      break
    }
    case '--partition':
      if (!/^[^=]+=/.test(v)) usageError(`--partition "${v}" is not KEY=VALUE`)
      opt.partition = v
      break
    default:
      usageError(`unknown option "${a}"`)
    }
  }
  if (opt.dir === undefined) usageError('no results folder given')
  return opt
}

function usageError(msg) {
  console.error(`check.mjs: ${msg}\n${usage}`)
  process.exit(2)
}

const opt = parseArgs(process.argv.slice(2))
const failures = []
const fail = (msg) => failures.push(msg)
const expectEqual = (what, got, want) => {
  if (got !== want) fail(`${what}: got ${got}; want ${want}`)
}

// differ is SQL for "doubles a and b differ by more than rounding": a
// value computed two ways may differ in its last bits.
const differ = (a, b) => `(${a} IS DISTINCT FROM ${b} AND NOT abs(${a} - ${b}) <= 1e-9 * greatest(1, abs(${b})))`

// work is SQL for a job's run on dedicated processors: its run time, or
// its estimate if it was killed.
const work = "CASE WHEN status = 'killed' THEN requested_time ELSE runtime END"

// The columns every results file must have, with DuckDB's type for each.
const runsColumns = {
  run_key: 'VARCHAR', experiment: 'VARCHAR', seed: 'BIGINT',
  jobs: 'BIGINT', warmup: 'DOUBLE', cooldown: 'DOUBLE', jobs_measured: 'BIGINT', finished: 'BIGINT', killed: 'BIGINT', rejected: 'BIGINT', makespan: 'BIGINT',
  utilization: 'DOUBLE', memory_utilization: 'DOUBLE', offered_load: 'DOUBLE', wall_seconds: 'DOUBLE',
  restarts: 'BIGINT', migrations: 'BIGINT', swaps: 'BIGINT', lost_work: 'DOUBLE', runtimes_cut: 'BIGINT',
}
for (const m of ['wait', 'response', 'slowdown', 'bounded_slowdown']) {
  for (const s of ['mean', 'median', 'p95']) runsColumns[`${m}_${s}`] = 'DOUBLE'
}
const jobsColumns = {
  run_key: 'VARCHAR', job_id: 'BIGINT', user: 'BIGINT', submit: 'BIGINT', start: 'BIGINT', end: 'BIGINT',
  runtime: 'BIGINT', requested_time: 'BIGINT', estimate_filled: 'BOOLEAN', procs: 'BIGINT', memory: 'BIGINT',
  wait: 'BIGINT', response: 'BIGINT', slowdown: 'DOUBLE', bounded_slowdown: 'DOUBLE',
  status: 'VARCHAR', reason: 'VARCHAR', eet: 'BIGINT', tardiness: 'BIGINT',
}
const usersColumns = {
  run_key: 'VARCHAR', user: 'BIGINT', jobs: 'BIGINT', ran: 'BIGINT',
  mean_wait: 'DOUBLE', mean_response: 'DOUBLE', mean_bounded_slowdown: 'DOUBLE',
  eet_violated: 'BIGINT', veet_share: 'DOUBLE', weighted_tardiness: 'BIGINT', recent_accuracy: 'DOUBLE',
}
// The columns of node_groups.parquet, and the jobs files' extra column,
// in sweeps with runs on nodes.
const groupsColumns = {
  run_key: 'VARCHAR', node_group: 'VARCHAR', nodes: 'BIGINT', cores: 'BIGINT', memory: 'BIGINT', gpus: 'BIGINT',
  utilization: 'DOUBLE',
}
const jobsNodesColumns = { nodes: 'VARCHAR' }
// polarsTypes maps DuckDB's column types to the Polars types the same
// columns must load as.
const polarsTypes = { BIGINT: 'Int64', DOUBLE: 'Float64', VARCHAR: 'String', BOOLEAN: 'Bool' }

const metadataKeys = ['schedsweep.tool_version', 'schedsweep.experiment_file', 'schedsweep.experiment_hash']

const runsPath = join(opt.dir, 'runs.parquet')
const usersPath = join(opt.dir, 'users.parquet')
const groupsPath = join(opt.dir, 'node_groups.parquet')
const jobsDir = join(opt.dir, 'jobs')
for (const p of [runsPath, usersPath, jobsDir]) {
  if (!existsSync(p)) {
    console.error(`check.mjs: ${p} does not exist`)
    process.exit(1)
  }
}
const jobFiles = listParquet(jobsDir)
if (jobFiles.length === 0) fail(`${jobsDir}: no .parquet files`)
const [partKey, partValue] = splitOnce(opt.partition, '=')
const partFiles = jobFiles.filter(f => relative(jobsDir, f).split(sep).includes(`${partKey}=${hiveEscape(partValue)}`))
if (partFiles.length === 0) fail(`no jobs file under a ${partKey}=${hiveEscape(partValue)} directory`)

try {
  const counts = await checkDuckDB()
  await checkHyparquet()
  checkPolars(counts)
} catch (err) {
  fail(`reading ${opt.dir} failed: ${err.message ?? err}`)
}

if (failures.length > 0) {
  for (const f of failures) console.error(`FAIL ${f}`)
  console.error(`check.mjs: ${failures.length} check(s) failed for ${opt.dir}`)
  process.exit(1)
}
console.log(`check.mjs: ${opt.dir}: all checks passed`)

async function checkDuckDB() {
  const db = await DuckDBInstance.create(':memory:')
  const con = await db.connect()
  const rows = async (sql, params) => (await con.runAndReadAll(sql, params)).getRowObjects()
  const one = async (sql, params) => Object.values((await rows(sql, params))[0])[0]
  const jobsGlob = join(jobsDir, '**', '*.parquet')
  await con.run(`CREATE VIEW runs AS SELECT * FROM read_parquet(${lit(runsPath)})`)
  await con.run(`CREATE VIEW users AS SELECT * FROM read_parquet(${lit(usersPath)})`)
  await con.run(`CREATE VIEW jobs AS SELECT * FROM read_parquet(${lit(jobsGlob)}, hive_partitioning = true)`)
  // measured: the jobs each run's warmup and cooldown keep, by their
  // position in the run's jobs file (one file a run, in submit order).
  await con.run(`CREATE VIEW measured AS
    SELECT p.* EXCLUDE (pos, n, filename, file_row_number) FROM (
      SELECT *, row_number() OVER (PARTITION BY run_key ORDER BY filename, file_row_number) - 1 AS pos,
             count(*) OVER (PARTITION BY run_key) AS n
      FROM read_parquet(${lit(jobsGlob)}, hive_partitioning = true, filename = true, file_row_number = true)) p
    JOIN runs r USING (run_key)
    WHERE p.pos >= floor(r.warmup * p.n) AND p.pos < p.n - floor(r.cooldown * p.n)`)

  const types = {}
  for (const [view, want] of [['runs', runsColumns], ['users', usersColumns], ['jobs', jobsColumns]]) {
    types[view] = Object.fromEntries((await rows(`DESCRIBE ${view}`)).map(r => [r.column_name, r.column_type]))
    for (const [col, type] of Object.entries(want)) {
      expectEqual(`duckdb: ${view} column ${col} type`, types[view][col] ?? 'missing', type)
    }
  }
  if (!(partKey in types.jobs)) fail(`duckdb: jobs has no Hive partition column ${partKey}`)
  if (!(partKey in types.runs)) fail(`duckdb: runs.parquet has no parameter column ${partKey}`)

  const nRuns = await one('SELECT count(*) FROM runs')
  const nUsers = await one('SELECT count(*) FROM users')
  const nJobs = await one('SELECT count(*) FROM jobs')
  if (opt.runs !== undefined) expectEqual('duckdb: runs.parquet rows', nRuns, opt.runs)
  if (opt.users !== undefined) expectEqual('duckdb: users.parquet rows', nUsers, opt.users)
  if (opt.jobs !== undefined) expectEqual('duckdb: jobs rows', nJobs, opt.jobs)
  expectEqual('duckdb: jobs rows against sum(runs.jobs)', nJobs, await one('SELECT sum(jobs) FROM runs'))
  expectEqual('duckdb: sum(users.jobs) against sum(runs.jobs_measured)',
    await one('SELECT sum(jobs) FROM users'), await one('SELECT sum(jobs_measured) FROM runs'))
  expectEqual('duckdb: runs.parquet run_key unique', await one('SELECT count(DISTINCT run_key) FROM runs'), nRuns)
  expectEqual('duckdb: jobs files cover every run', await one('SELECT count(DISTINCT run_key) FROM jobs'), nRuns)
  expectEqual('duckdb: rejected jobs with a start time',
    await one("SELECT count(*) FROM jobs WHERE status = 'rejected' AND start IS NOT NULL"), 0n)
  // runs.parquet's quantiles are nearest-rank, which is DuckDB's quantile_disc.
  expectEqual("duckdb: runs whose wait and bounded slowdown stats disagree with their jobs'", await one(`
    WITH j AS (
      SELECT run_key, avg(wait) AS wait_mean,
             quantile_disc(wait, 0.5) AS wait_median, quantile_disc(wait, 0.95) AS wait_p95,
             quantile_disc(bounded_slowdown, 0.5) AS bsld_median, quantile_disc(bounded_slowdown, 0.95) AS bsld_p95
      FROM measured WHERE status <> 'rejected' GROUP BY run_key)
    SELECT count(*) FROM j JOIN runs r USING (run_key)
    WHERE abs(j.wait_mean - r.wait_mean) > 1e-9 * greatest(1, abs(r.wait_mean))
       OR j.wait_median <> r.wait_median OR j.wait_p95 <> r.wait_p95
       OR j.bsld_median <> r.bounded_slowdown_median OR j.bsld_p95 <> r.bounded_slowdown_p95`), 0n)

  await checkDefinitions(rows, one)
  if ('target_offered_load' in types.runs) {
    // A sweep of target offered loads: every run within 1 % of its target,
    // and the policies of one workload, target and replicate offered the
    // same jobs (the same load and factor).
    await noRows(rows, one)('runs more than 1 % off their target offered load', `
      SELECT run_key, target_offered_load, load_factor, offered_load FROM runs
      WHERE target_offered_load IS NOT NULL AND NOT abs(offered_load / target_offered_load - 1) <= 0.01`)
    await noRows(rows, one)('policies of one workload, target and replicate with different loads', `
      SELECT workload, target_offered_load, replicate, count(DISTINCT load_factor) AS factors,
             max(offered_load) - min(offered_load) AS spread
      FROM runs WHERE target_offered_load IS NOT NULL GROUP BY ALL
      HAVING count(DISTINCT load_factor) > 1 OR max(offered_load) - min(offered_load) > 1e-12`)
    console.log(`duckdb: ${await one('SELECT count(*) FROM runs WHERE target_offered_load IS NOT NULL')} runs at their target offered load`)
  }
  await checkSeries(con, rows, one)
  await checkNodes(con, rows, one, types)

  // One Hive partition: its jobs, the runs they come from, and the runs
  // runs.parquet says have that parameter value.
  const partJobs = await one(`SELECT count(*) FROM jobs WHERE CAST(${ident(partKey)} AS VARCHAR) = $1`, [partValue])
  if (partJobs === 0n) fail(`duckdb: no jobs in partition ${opt.partition}`)
  if (opt.partitionJobs !== undefined) expectEqual(`duckdb: jobs in partition ${opt.partition}`, partJobs, opt.partitionJobs)
  expectEqual(`duckdb: jobs in partition ${opt.partition} against its runs' jobs`, partJobs, await one(
    `SELECT sum(jobs) FROM runs WHERE run_key IN
       (SELECT run_key FROM jobs WHERE CAST(${ident(partKey)} AS VARCHAR) = $1)`, [partValue]))
  const runsType = types.runs[partKey]
  const match = runsType === 'VARCHAR' ? '$1' : `TRY_CAST($1 AS ${runsType})`
  expectEqual(`duckdb: runs in partition ${opt.partition} against runs.parquet's ${partKey}`,
    await one(`SELECT count(DISTINCT run_key) FROM jobs WHERE CAST(${ident(partKey)} AS VARCHAR) = $1`, [partValue]),
    await one(`SELECT count(*) FROM runs WHERE ${ident(partKey)} = ${match}`, [partValue]))
  // Reading the partition's files alone gives the same count.
  if (partFiles.length > 0) {
    expectEqual(`duckdb: rows of the files under ${opt.partition}`,
      await one(`SELECT count(*) FROM read_parquet([${partFiles.map(lit).join(', ')}])`), partJobs)
  }

  for (const p of [runsPath, usersPath, jobFiles[0]]) {
    const kv = Object.fromEntries((await rows(
      `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${lit(p)})`)).map(r => [r.k, r.v]))
    for (const k of metadataKeys) if (!(k in kv)) fail(`duckdb: ${p}: no key-value metadata ${k}`)
  }
  console.log(`duckdb: ${nRuns} runs, ${nUsers} user rows, ${nJobs} jobs in ${jobFiles.length} files; ` +
    `${partJobs} jobs in partition ${opt.partition}`)
  con.closeSync()
  db.closeSync()
  return { nRuns, nUsers, nJobs, partJobs }
}

// checkDefinitions recomputes, in DuckDB, what results/README.md defines
// from the jobs files: each job's derived columns from its times, each
// run's counts, makespan, utilizations and all twelve statistics, and each
// user's row. Any row that disagrees fails, shown with its values.
async function checkDefinitions(rows, one) {
  const none = noRows(rows, one)
  await none('jobs whose derived columns disagree with their times', `
    SELECT run_key, job_id, status, submit, start, "end", runtime, requested_time, wait, response,
           slowdown, bounded_slowdown, eet, tardiness, reason FROM jobs
    WHERE CASE WHEN status = 'rejected' THEN
            start IS NOT NULL OR "end" IS NOT NULL OR wait IS NOT NULL OR response IS NOT NULL OR
            slowdown IS NOT NULL OR bounded_slowdown IS NOT NULL OR eet IS NOT NULL OR tardiness IS NOT NULL OR
            reason IS NULL
          ELSE
            status NOT IN ('finished', 'killed') OR reason IS NOT NULL OR
            wait IS DISTINCT FROM start - submit OR response IS DISTINCT FROM "end" - submit OR wait < 0 OR
            ${differ('slowdown', `response / greatest(${work}, 1)`)} OR
            ${differ('bounded_slowdown', `greatest(1, response / greatest(${work}, 10))`)} OR
            (eet IS NULL) <> (tardiness IS NULL) OR tardiness IS DISTINCT FROM greatest(0, "end" - eet)
          END`)

  const stats = ['wait', 'response', 'slowdown', 'bounded_slowdown'].flatMap(m => [
    `avg(${m}) AS ${m}_mean`, `quantile_disc(${m}, 0.5) AS ${m}_median`, `quantile_disc(${m}, 0.95) AS ${m}_p95`])
  const statCols = ['wait', 'response', 'slowdown', 'bounded_slowdown'].flatMap(m => [`${m}_mean`, `${m}_median`, `${m}_p95`])
  await none("runs whose counts, makespan, utilization, offered load or statistics disagree with their jobs'", `
    WITH j AS (
      SELECT run_key, count(*) AS jobs,
             coalesce(max("end") - min(submit), 0) AS makespan,
             max(submit) - min(submit) AS span,
             count(*) FILTER (WHERE status <> 'rejected') AS ran,
             sum(procs::HUGEINT * ${work}) FILTER (WHERE status <> 'rejected') AS proc_work,
             sum(memory::HUGEINT * ${work}) FILTER (WHERE status <> 'rejected') AS mem_work
      FROM jobs GROUP BY run_key),
    m AS (
      SELECT run_key, count(*) AS measured,
             count(*) FILTER (WHERE status = 'finished') AS finished,
             count(*) FILTER (WHERE status = 'killed') AS killed,
             count(*) FILTER (WHERE status = 'rejected') AS rejected,
             ${stats.map(s => s.replace(/\((\w+)/, "($1").replace(/\) AS/, ") FILTER (WHERE status <> 'rejected') AS")).join(', ')}
      FROM measured GROUP BY run_key),
    d AS (
      SELECT r.run_key, r.jobs, j.jobs AS jobs_from_files, r.jobs_measured, m.measured AS measured_from_files,
             r.finished, m.finished AS f2, r.killed, m.killed AS k2,
             r.rejected, m.rejected AS r2, r.makespan, j.makespan AS makespan_from_jobs,
             r.utilization, CASE WHEN j.makespan = 0 THEN 0 ELSE coalesce(j.proc_work, 0) / (r.cluster_procs::DOUBLE * j.makespan) END AS util,
             r.memory_utilization, CASE WHEN j.makespan = 0 OR r.cluster_memory = 0 THEN 0
                                        ELSE coalesce(j.mem_work, 0) / (r.cluster_memory::DOUBLE * j.makespan) END AS mem_util,
             r.offered_load, CASE WHEN j.span = 0 OR j.ran = 0 THEN 0
                                  ELSE coalesce(j.proc_work, 0) / (r.cluster_procs::DOUBLE * j.span) END AS offered,
             ${statCols.map(c => `r.${c}, m.${c} AS ${c}_from_jobs`).join(', ')}
      FROM runs r LEFT JOIN j USING (run_key) LEFT JOIN m USING (run_key))
    SELECT * FROM d
    WHERE jobs IS DISTINCT FROM jobs_from_files OR jobs_measured IS DISTINCT FROM measured_from_files OR finished IS DISTINCT FROM f2 OR killed IS DISTINCT FROM k2 OR
          rejected IS DISTINCT FROM r2 OR makespan IS DISTINCT FROM makespan_from_jobs OR
          ${differ('utilization', 'util')} OR ${differ('memory_utilization', 'mem_util')} OR
          ${differ('offered_load', 'offered')} OR
          ${statCols.map(c => differ(c, `${c}_from_jobs`)).join(' OR ')}`)

  await none("user rows that disagree with their jobs'", `
    WITH j AS (
      SELECT run_key, "user", count(*) AS jobs, count(*) FILTER (WHERE status <> 'rejected') AS ran,
             avg(wait) AS mean_wait, avg(response) AS mean_response, avg(bounded_slowdown) AS mean_bsld,
             bool_or(eet IS NOT NULL) AS has_eet,
             count(*) FILTER (WHERE tardiness > 0) AS violated,
             coalesce(sum(procs * tardiness), 0) AS wt
      FROM measured GROUP BY run_key, "user"),
    d AS (
      SELECT u.run_key, u."user", u.jobs, j.jobs AS jobs_from_files, u.ran, j.ran AS ran_from_jobs,
             u.mean_wait, j.mean_wait AS w2, u.mean_response, j.mean_response AS r2,
             u.mean_bounded_slowdown, j.mean_bsld AS b2, j.has_eet,
             u.eet_violated, j.violated, u.weighted_tardiness, j.wt, u.veet_share
      FROM users u FULL JOIN j ON u.run_key = j.run_key AND u."user" IS NOT DISTINCT FROM j."user")
    SELECT * FROM d
    WHERE jobs IS DISTINCT FROM jobs_from_files OR ran IS DISTINCT FROM ran_from_jobs OR
          ${differ('mean_wait', 'w2')} OR ${differ('mean_response', 'r2')} OR ${differ('mean_bounded_slowdown', 'b2')} OR
          (has_eet AND (eet_violated IS DISTINCT FROM violated OR weighted_tardiness IS DISTINCT FROM wt OR
                        ${differ('veet_share', 'CASE WHEN ran = 0 THEN NULL ELSE violated / ran END')})) OR
          (NOT has_eet AND ran > 0 AND (eet_violated IS NOT NULL OR weighted_tardiness IS NOT NULL OR veet_share IS NOT NULL))`)
}

// checkNodes checks what results/README.md says of the nodes column and
// node_groups.parquet, which a sweep writes when it has runs on nodes, and
// only then: a run with rows in node_groups.parquet gives the nodes of
// every job that ran and of no rejected one, in hostlist notation whose
// every item starts with one of the run's node groups; a run without rows
// (on the pool) gives none; and the groups' utilizations, weighted by their
// cores, are the run's, over as many cores as cluster_procs.
async function checkNodes(con, rows, one, types) {
  if (!('nodes' in types.jobs)) {
    if (existsSync(groupsPath)) fail(`${groupsPath} exists, but the jobs files have no nodes column`)
    return
  }
  expectEqual('duckdb: jobs column nodes type', types.jobs.nodes, jobsNodesColumns.nodes)
  if (!existsSync(groupsPath)) {
    fail(`${groupsPath} does not exist, but the jobs files have the nodes column`)
    return
  }
  await con.run(`CREATE VIEW node_groups AS SELECT * FROM read_parquet(${lit(groupsPath)})`)
  const gt = Object.fromEntries((await rows('DESCRIBE node_groups')).map(r => [r.column_name, r.column_type]))
  for (const [col, type] of Object.entries(groupsColumns)) {
    expectEqual(`duckdb: node_groups column ${col} type`, gt[col] ?? 'missing', type)
  }
  const none = noRows(rows, one)
  await none('node_groups rows of runs runs.parquet does not hold',
    'SELECT run_key, node_group FROM node_groups WHERE run_key NOT IN (SELECT run_key FROM runs)')
  await none('jobs whose nodes disagree with their status and machine', `
    SELECT run_key, job_id, status, nodes FROM jobs
    WHERE CASE WHEN run_key IN (SELECT run_key FROM node_groups) THEN (nodes IS NULL) <> (status = 'rejected')
               ELSE nodes IS NOT NULL END`)
  // An item is a name, or a prefix and one bracket group of numbers and
  // ranges; items are joined by commas.
  const item = String.raw`[^,\[\]\s]+(\[[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*\])?`
  await none('nodes not in hostlist notation', `
    SELECT run_key, job_id, nodes FROM jobs
    WHERE nodes IS NOT NULL AND NOT regexp_full_match(nodes, '${item}(,${item})*')`)
  await none('nodes items that name no node group of their run', `
    WITH items AS (
      SELECT run_key, job_id, nodes, unnest(regexp_extract_all(nodes, '${item}')) AS item
      FROM jobs WHERE nodes IS NOT NULL)
    SELECT i.run_key, i.job_id, i.nodes, i.item FROM items i
    WHERE NOT EXISTS (SELECT 1 FROM node_groups g
                      WHERE g.run_key = i.run_key AND starts_with(i.item, g.node_group))`)
  await none("runs whose node groups' utilization, weighted by cores, is not theirs", `
    WITH g AS (
      SELECT run_key, sum(utilization * nodes * cores) / sum(nodes * cores) AS util, sum(nodes * cores) AS cores
      FROM node_groups GROUP BY run_key)
    SELECT r.run_key, r.utilization, g.util, r.cluster_procs, g.cores FROM runs r JOIN g USING (run_key)
    WHERE ${differ('r.utilization', 'g.util')} OR r.cluster_procs <> g.cores`)
  console.log(`duckdb: nodes of ${await one('SELECT count(nodes) FROM jobs')} jobs and ` +
    `${await one('SELECT count(*) FROM node_groups')} node groups of ${await one('SELECT count(DISTINCT run_key) FROM node_groups')} runs checked`)
}

// noRows returns a function that fails, naming what and showing a few of
// them, unless the query sql returns no row.
function noRows(rows, one) {
  return async (what, sql) => {
    const n = await one(`SELECT count(*) FROM (${sql})`)
    if (n !== 0n) {
      const shown = (await rows(`SELECT * FROM (${sql}) LIMIT 3`)).map(r => JSON.stringify(r, (_, v) => typeof v === 'bigint' ? String(v) : v))
      fail(`duckdb: ${n} ${what}, such as ${shown.join('; ')}`)
    }
  }
}

// checkSeries recomputes, from the jobs files, the per-run heatmap and
// utilization files the folder holds (results/README.md, "Heatmaps and
// utilization series"): bucket b covers [origin + b·L, origin + (b+1)·L),
// the origin being the run's first submit. A utilization row is the
// processor- (and memory-) seconds held in its bucket over the machine's
// capacity times the bucket's length, the last bucket ending at the last
// end; a job late by T seconds adds one violation to each of ⌈T/L⌉ buckets
// of its user's heatmap, from the one holding eet − work.
async function checkSeries(con, rows, one) {
  const none = noRows(rows, one)
  const series = [['heatmap', join(opt.dir, 'heatmap')], ['utilization', join(opt.dir, 'utilization')]]
  const bucketLen = async (dir) => {
    const files = listParquet(dir)
    if (files.length === 0) {
      fail(`${dir}: no .parquet files`)
      return undefined
    }
    const lens = new Set()
    for (const f of files) {
      lens.add(await one(`SELECT decode(value) FROM parquet_kv_metadata(${lit(f)}) WHERE decode(key) = 'schedsweep.bucket_seconds'`))
    }
    if (lens.size !== 1 || !/^[1-9]\d*$/.test([...lens][0] ?? '')) {
      fail(`${dir}: schedsweep.bucket_seconds is ${[...lens].join(', ')}; want one whole number of seconds`)
      return undefined
    }
    return BigInt([...lens][0])
  }
  for (const [name, dir] of series) {
    if (!existsSync(dir)) continue
    const L = await bucketLen(dir)
    if (L === undefined) continue
    await con.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet(${lit(join(dir, '**', '*.parquet'))})`)
    const origins = `SELECT run_key, min(submit) AS origin, max("end") AS last_end FROM jobs GROUP BY run_key`
    if (name === 'utilization') {
      await none('utilization buckets that disagree with the jobs that held processors or memory then', `
        WITH o AS (${origins}),
        held AS (
          SELECT j.run_key, procs, memory, start, "end", origin,
                 unnest(range((start - origin) // ${L}, ("end" - origin + ${L} - 1) // ${L})) AS bucket
          FROM jobs j JOIN o USING (run_key) WHERE status <> 'rejected' AND "end" > start),
        secs AS (
          SELECT run_key, bucket,
                 sum(procs::HUGEINT * (least("end", origin + (bucket + 1) * ${L}) - greatest(start, origin + bucket * ${L}))) AS proc_secs,
                 sum(memory::HUGEINT * (least("end", origin + (bucket + 1) * ${L}) - greatest(start, origin + bucket * ${L}))) AS mem_secs
          FROM held GROUP BY ALL),
        want AS (
          SELECT o.run_key, b.bucket,
                 coalesce(s.proc_secs, 0) / (r.cluster_procs::DOUBLE * least(${L}, o.last_end - o.origin - b.bucket * ${L})) AS procs,
                 CASE WHEN r.cluster_memory = 0 THEN 0
                      ELSE coalesce(s.mem_secs, 0) / (r.cluster_memory::DOUBLE * least(${L}, o.last_end - o.origin - b.bucket * ${L})) END AS memory
          FROM o JOIN runs r USING (run_key)
          CROSS JOIN LATERAL (SELECT unnest(range(0, (o.last_end - o.origin + ${L} - 1) // ${L})) AS bucket) b
          LEFT JOIN secs s ON s.run_key = o.run_key AND s.bucket = b.bucket
          WHERE o.run_key IN (SELECT run_key FROM utilization))
        SELECT coalesce(w.run_key, u.run_key) AS run_key, coalesce(w.bucket, u.bucket) AS bucket,
               u.procs, w.procs AS procs_from_jobs, u.memory, w.memory AS memory_from_jobs
        FROM want w FULL JOIN utilization u ON u.run_key = w.run_key AND u.bucket = w.bucket
        WHERE ${differ('u.procs', 'w.procs')} OR ${differ('u.memory', 'w.memory')}`)
    } else {
      await none("heatmap cells that disagree with the late jobs' EETs", `
        WITH o AS (${origins}),
        late AS (
          SELECT j.run_key, "user", (eet - ${work} - origin) // ${L} AS first, (tardiness + ${L} - 1) // ${L} AS n
          FROM jobs j JOIN o USING (run_key) WHERE tardiness > 0),
        want AS (
          SELECT run_key, "user", bucket, count(*) AS violations
          FROM (SELECT run_key, "user", unnest(range(first, first + n)) AS bucket FROM late)
          WHERE run_key IN (SELECT run_key FROM heatmap) GROUP BY ALL)
        SELECT coalesce(w.run_key, h.run_key) AS run_key, coalesce(w."user", h."user") AS "user",
               coalesce(w.bucket, h.bucket) AS bucket, h.violations, w.violations AS violations_from_jobs
        FROM want w FULL JOIN heatmap h
          ON h.run_key = w.run_key AND h."user" IS NOT DISTINCT FROM w."user" AND h.bucket = w.bucket
        WHERE h.violations IS DISTINCT FROM w.violations`)
    }
    console.log(`duckdb: ${name} of ${await one(`SELECT count(DISTINCT run_key) FROM ${name}`)} runs recomputed from the jobs, ${L} s buckets`)
  }
}

// checkPolars reads the folder as results/README.md's Polars snippet does
// and compares its counts with DuckDB's.
function checkPolars(duck) {
  const check = (what, df, want) => {
    const schema = df.schema
    for (const [col, type] of Object.entries(want)) {
      const got = schema[col]
      if (got === undefined) fail(`polars: ${what} has no column ${col}`)
      else expectEqual(`polars: ${what} column ${col} type`, String(got.variant ?? got), polarsTypes[type])
    }
  }
  const runs = pl.readParquet(runsPath)
  check('runs.parquet', runs, runsColumns)
  expectEqual('polars: runs.parquet rows', BigInt(runs.height), duck.nRuns)
  const users = pl.readParquet(usersPath)
  check('users.parquet', users, usersColumns)
  expectEqual('polars: users.parquet rows', BigInt(users.height), duck.nUsers)

  const jobs = pl.scanParquet(join(jobsDir, '**', '*.parquet'), { hivePartitioning: true })
  const all = jobs.collectSync()
  check('jobs', all, jobsColumns)
  if (existsSync(groupsPath)) {
    check('jobs', all, jobsNodesColumns)
    check('node_groups.parquet', pl.readParquet(groupsPath), groupsColumns)
  }
  expectEqual('polars: jobs rows', BigInt(all.height), duck.nJobs)
  const partType = all.schema[partKey]
  if (partType === undefined) {
    fail(`polars: jobs has no Hive partition column ${partKey}`)
    return
  }
  // A numeric partition value compares as a number: Polars types
  // load_factor=1 as the float 1.
  const numeric = /^(Int|UInt|Float)/.test(String(partType.variant ?? partType))
  const value = numeric ? pl.lit(Number(partValue)) : pl.lit(partValue)
  const part = jobs.filter(pl.col(partKey).eq(value)).collectSync()
  expectEqual(`polars: jobs in partition ${opt.partition}`, BigInt(part.height), duck.partJobs)
  console.log(`polars: ${runs.height} runs, ${users.height} user rows, ${all.height} jobs; ` +
    `${part.height} jobs in partition ${opt.partition}`)
}

async function checkHyparquet() {
  const runs = await readWithHyparquet(runsPath)
  if (opt.runs !== undefined) expectEqual('hyparquet: runs.parquet rows', BigInt(runs.rows.length), opt.runs)
  expectColumns('hyparquet: runs.parquet', runs.columns, Object.keys(runsColumns))
  if (!runs.columns.includes(partKey)) fail(`hyparquet: runs.parquet has no column ${partKey}`)

  const users = await readWithHyparquet(usersPath)
  if (opt.users !== undefined) expectEqual('hyparquet: users.parquet rows', BigInt(users.rows.length), opt.users)
  expectColumns('hyparquet: users.parquet', users.columns, Object.keys(usersColumns))

  const file = partFiles[0]
  if (file === undefined) return
  const jobs = await readWithHyparquet(file)
  expectColumns(`hyparquet: ${file}`, jobs.columns, Object.keys(jobsColumns))
  const key = jobs.rows[0]?.run_key
  const run = runs.rows.find(r => r.run_key === key)
  if (run === undefined) {
    fail(`hyparquet: ${file}: run_key ${key} is not in runs.parquet`)
  } else {
    expectEqual(`hyparquet: ${file} rows against runs.parquet's jobs for ${key}`, BigInt(jobs.rows.length), run.jobs)
    // finished counts the measured jobs: those the run's warmup and
    // cooldown keep, by position in the file.
    const n = jobs.rows.length
    const lo = Math.floor(run.warmup * n), hi = n - Math.floor(run.cooldown * n)
    expectEqual(`hyparquet: ${file} finished jobs`,
      BigInt(jobs.rows.filter((r, i) => i >= lo && i < hi && r.status === 'finished').length), run.finished)
    // Every page decoded: the job ids are distinct 64-bit integers.
    expectEqual(`hyparquet: ${file} distinct job_id`, new Set(jobs.rows.map(r => r.job_id)).size, jobs.rows.length)
  }
  for (const r of jobs.rows) {
    if (typeof r.job_id !== 'bigint' || typeof r.submit !== 'bigint') {
      fail(`hyparquet: ${file}: job_id and submit should read as 64-bit integers, got ${typeof r.job_id}, ${typeof r.submit}`)
      break
    }
  }
  console.log(`hyparquet: ${runs.rows.length} runs, ${users.rows.length} user rows, ` +
    `${jobs.rows.length} jobs in ${relative(opt.dir, file)}`)
}

// readWithHyparquet reads a whole file and checks what every results file
// shares: a root without a REPEATED repetition type (the Parquet spec gives
// the root none; arrow-go before v18.8.0 wrote REPEATED, which some readers
// reject), zstd, and the schedsweep key-value metadata.
async function readWithHyparquet(path) {
  const file = await asyncBufferFromFile(path)
  const metadata = await parquetMetadataAsync(file)
  const rootRepetition = metadata.schema[0].repetition_type
  if (rootRepetition !== undefined && rootRepetition !== 'REQUIRED') {
    fail(`hyparquet: ${path}: root repetition ${rootRepetition}; want none or REQUIRED`)
  }
  const codecs = new Set(metadata.row_groups.flatMap(rg => rg.columns.map(c => c.meta_data.codec)))
  for (const c of codecs) expectEqual(`hyparquet: ${path} compression`, c, 'ZSTD')
  const kv = Object.fromEntries((metadata.key_value_metadata ?? []).map(({ key, value }) => [key, value]))
  for (const k of metadataKeys) if (!(k in kv)) fail(`hyparquet: ${path}: no key-value metadata ${k}`)
  const rows = await parquetReadObjects({ file, metadata, compressors })
  expectEqual(`hyparquet: ${path} rows against its footer`, BigInt(rows.length), metadata.num_rows)
  return { rows, columns: parquetSchema(metadata).children.map(c => c.element.name) }
}

function expectColumns(what, got, want) {
  for (const c of want) if (!got.includes(c)) fail(`${what}: no column ${c} (has ${got.join(', ')})`)
}

function listParquet(dir) {
  const out = []
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...listParquet(p))
    else if (name.endsWith('.parquet')) out.push(p)
  }
  return out
}

function splitOnce(s, sepChar) {
  const i = s.indexOf(sepChar)
  return [s.slice(0, i), s.slice(i + 1)]
}

// hiveEscape percent-encodes a partition value as results.PartitionDir does.
function hiveEscape(s) {
  return Array.from(new TextEncoder().encode(s), b => {
    const c = String.fromCharCode(b)
    return /[A-Za-z0-9._~-]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0')
  }).join('')
}

function lit(s) { return `'${s.replaceAll("'", "''")}'` }
function ident(s) { return `"${s.replaceAll('"', '""')}"` }
