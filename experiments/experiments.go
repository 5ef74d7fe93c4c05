// Package experiments holds the experiment files that ship with
// schedsweep: quickstart.hcl, the default sweep, and reference.hcl, which
// shows every block and argument of the language. The command line reads
// them from Files; package runner/spec parses them.
package experiments

import "embed"

// Files holds the .hcl files of this folder and the files they name
// by a relative path (the slurm.conf files of slurm/), so that an
// embedded experiment runs from any folder.
//
//go:embed *.hcl slurm/*.conf
var Files embed.FS
