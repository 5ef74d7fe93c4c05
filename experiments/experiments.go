// Package experiments holds the experiment files that ship with
// schedsweep: quickstart.hcl, the default sweep, and reference.hcl, which
// shows every block and argument of the language. The command line reads
// them from Files; package runner/spec parses them.
package experiments

import "embed"

// Files holds the .hcl files of this folder.
//
//go:embed *.hcl
var Files embed.FS
