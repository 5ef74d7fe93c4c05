// Package slurmconf reads a slurm.conf as Slurm 22.05 reads it and turns
// it into what schedsweep simulates: a cluster of node groups and
// partitions (sim/nodes.Config) and the parameters of the policy "slurm"
// (policies.SlurmParams), with a warning for everything it does not model.
//
// Reading follows src/common/parse_config.c and read_config.c at tag
// slurm-22-05-8-1: one option per line as Key=Value, keys in any case;
// # starts a comment unless escaped (\#); a backslash escapes the next
// character, and one ending a line continues it on the next; a value is a
// run of non-blanks or "quoted" (blanks allowed). NodeName, PartitionName,
// DownNodes, NodeSet, FrontendName and SlurmctldHost lines hold further
// Key=Value pairs; NodeName=DEFAULT and PartitionName=DEFAULT lines set
// defaults for the lines below them, a later DEFAULT line overriding an
// earlier one key by key. "Include FILE" reads another file there, a
// relative path from the including file's folder, %c standing for
// ClusterName, as Slurm does ([Read]; [Parse], which has no file system,
// refuses Include). An unknown key is an error, as in slurmctld. Stricter
// than Slurm: an operator such as +=, an empty value, an unclosed quote
// and a second option on a simple option's line are errors (Slurm reads
// the first two as something else and refuses the last).
//
// [Config] holds the options; [Config.Cluster], [Config.Params] and
// [Config.Unmodelled] translate them, each returning its warnings, which
// the caller shows (this package never prints). Errors are [*Error], which
// names the file, the line, and the key and value at fault.
//
// Values: numbers as Slurm reads them (k multiplies by 1024; UNLIMITED),
// booleans yes/no/true/false/up/down/1/0, times as [ParseTime] (minutes,
// min:sec, h:m:s, d-h, d-h:m, d-h:m:s, UNLIMITED), kept in whole minutes
// where Slurm keeps them so (MaxTime, DefaultTime, PriorityMaxAge,
// PriorityDecayHalfLife, PriorityCalcPeriod: seconds rounded up to the
// minute, as time_str2mins does). Node CPUs are derived as _parse_nodename
// derives them; RealMemory is MiB; Gres counts gpu:N and gpu:TYPE:N.
package slurmconf
