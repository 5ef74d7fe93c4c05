package spec

// This file holds the workload arguments whose values are names. A
// workload block and the flags of schedsweep simulate both parse them
// here, so that the two cannot come to accept different names.

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/workloads"
)

// Names returns the names a workload argument takes when its value is one
// of a fixed set ("procs_field", "memory_field", "memory_unit",
// "missing_estimate" or "cpu_usage"), in the order of the values they
// select: the name at index i selects value i (workloads.ProcsField(i),
// sim.MissingEstimate(i), …). It returns nil for any other argument.
func Names(arg string) []string {
	switch arg {
	case "procs_field":
		return workloads.ProcsFieldNames()
	case "memory_field":
		return workloads.MemoryFieldNames()
	case "memory_unit":
		return workloads.MemoryUnitNames()
	case "missing_estimate":
		// sim.EstimateFromRuntime, sim.RejectMissingEstimate.
		return []string{"runtime", "reject"}
	case "cpu_usage":
		return []string{"none", "default", "full"}
	case "format":
		// Workload.Format "" (read as "swf") and "sacct".
		return []string{"swf", "sacct"}
	}
	return nil
}

// Choose returns the value that name selects for the workload argument
// arg: its index in Names(arg). A name that is not there is a
// *ChoiceError.
func Choose(arg, name string) (int, error) {
	names := Names(arg)
	if i := indexOf(names, name); i >= 0 {
		return i, nil
	}
	return 0, &ChoiceError{Arg: arg, Name: name, Names: names}
}

// ChoiceError is a name that an argument does not take.
type ChoiceError struct {
	Arg   string   // the argument, as a workload block names it
	Name  string   // the name given
	Names []string // the names it takes
}

// Error says what the argument takes: "both" is not requested or
// allocated, with the closest name when one is close.
func (e *ChoiceError) Error() string {
	msg := fmt.Sprintf("%q is not %s", e.Name, orList(e.Names, func(s string) string { return s }))
	if s := suggest.Closest(e.Name, e.Names); s != "" && s != e.Name {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// indexOf returns the index of name in names, -1 if it is not there.
func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// orList renders names, each through form, as a, b or c.
func orList(names []string, form func(string) string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = form(n)
	}
	switch len(q) {
	case 0:
		return "none"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
