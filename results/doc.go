// Package results turns simulated schedules into numbers: metrics as pure
// functions over a run's outcomes. Writers for result tables (Arrow/Parquet)
// will live here too. It reads sim types only; it never simulates.
//
// Start with Summarize.
package results
