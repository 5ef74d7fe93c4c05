// Runs every statement of the sql blocks of a Markdown file with DuckDB, in
// the current directory, and fails if one fails or returns no rows: the
// README's query must keep working on the README's sweep.
//
//   node readme-sql.mjs README.md      (from a folder holding out/quickstart)
import { DuckDBInstance } from '@duckdb/node-api'
import { readFileSync } from 'node:fs'

const file = process.argv[2]
const text = readFileSync(file, 'utf8')
const blocks = [...text.matchAll(/^```sql\n([\s\S]*?)^```/gm)].map((m) => m[1])
const statements = blocks.flatMap((b) => b.split(';')).map((s) => s.replace(/--.*$/gm, '').trim()).filter(Boolean)
if (statements.length === 0) {
  console.error(`${file}: no sql block`)
  process.exit(1)
}
const db = await DuckDBInstance.create(':memory:')
const con = await db.connect()
for (const sql of statements) {
  const rows = (await con.runAndReadAll(sql)).getRowObjects()
  if (rows.length === 0) {
    console.error(`${file}: ${sql}\nreturned no rows`)
    process.exit(1)
  }
  console.log(`${file}: ${rows.length} rows from: ${sql.split('\n')[0]}`)
}
