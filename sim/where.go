package sim

// Where is what restricts the nodes a job may use on a machine of nodes,
// by name: its partition, the node groups it may or may not use, the
// features every node it uses must or must not have. Models without nodes
// ignore it. Sources share one Where among the jobs that ask the same (a
// machine model may key a cache on the pointer), and nobody changes a
// Where once a job carries it.
type Where struct {
	// Partition names the partition the job was submitted to; empty: the
	// machine's default partition.
	Partition string
	// Groups are the node groups the job may use; empty: any.
	Groups []string
	// NotGroups are the node groups the job may not use.
	NotGroups []string
	// Features are features every node the job uses must have.
	Features []string
	// NotFeatures are features no node the job uses may have.
	NotFeatures []string
	// Invalid, when not empty, says why the job's node request could not
	// be read (file, line, field and value): a machine of nodes rejects
	// the job with reason NegativeRequest rather than guess its shape.
	Invalid string
}
