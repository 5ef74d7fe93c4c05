// Package report writes a results folder as one self-contained HTML page,
// for a person to look at and to send to colleagues who do not run
// schedsweep: the experiment (its file, hash and the tool version that ran
// it), the grid, a table of the runs that sorts and filters, with each
// run's wall time, the per-policy figures of package plot as inline SVG,
// a table of the users of one replicate under each policy, and for one
// chosen run an interactive Gantt chart of its schedule with the
// processors in use above it.
//
// The page needs no network: its script, style, data and figures are all
// inline, and a Content-Security-Policy of default-src 'none' (scripts
// and styles inline, fonts and images from data: URLs) makes the browser
// refuse any request it would make. The script is plain JavaScript of our
// own (assets/report.js), embedded with go:embed: no library, no build
// step. The SVG figures share one copy of their font.
//
// The Gantt chart. Jobs get processor rows from plot.Pack (first fit at
// each start, in bands when the free rows are split; see results/plot's
// gantt.go), computed here and embedded as columnar arrays, one per field
// (ids, users, times from the first submit, processors, status, bands), so
// a 100,000-job run costs some megabytes of numbers and no objects. The
// script draws on a canvas by writing pixels itself: each visible band
// fills its rectangle, at least one pixel each way, in an image buffer put
// on the canvas once, and records its job in a buffer of the same size
// that hover reads. A frame costs a step per visible band and a write
// per pixel it covers, with no call into the canvas per job: zoomed out,
// the jobs that fall in one pixel share it (the last drawn shows), which
// is the aggregation; zoomed in, jobs leave the view and cost nothing but
// a test. A 100,000-job run (Lublin model, 1,024 processors) makes a
// 6.5 MB page whose first frame took 0.57 s in headless chromium on a
// heavily loaded 2-core machine. The strip above integrates the processors in use over each
// column of pixels from the start and end events, sorted once. The canvas
// carries data-drawn-jobs, the jobs that got pixels in the last frame, and
// data-jobs, those that ran, for tests in a real browser (.ci/browser,
// which also zooms, hovers and resets the chart through the DevTools
// protocol, .ci/browser-interact.mjs).
//
// Start with Save (or Write), given a folder plot.Load read and Options
// naming the run to chart.
package report
