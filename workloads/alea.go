package workloads

import (
	"fmt"
	"strconv"
	"strings"
)

// AleaFields are the fields Alea's data sets write after SWF's 18
// (wagap-2013: every line has all three).
type AleaFields struct {
	// Ran is field 19: the node of each processor the job ran on, one id
	// per processor, "{1241,1241,1255}"; nil when the field is absent or
	// "-1".
	Ran []int64
	// Queue is field 20, the PBS queue ("q_1d", "backfill"); empty when absent.
	Queue string
	// Request is field 21, the node request; HasRequest is false when the
	// field is absent or "-1".
	Request    Request
	HasRequest bool
}

// Names of Alea's fields, for *ParseError.
const (
	FieldRan     = 19
	FieldQueue   = 20
	FieldRequest = 21
)

var aleaFieldNames = map[int]string{FieldRan: "nodes ran on", FieldQueue: "queue", FieldRequest: "node request"}

// ParseAleaFields parses extra, the tokens of a job line after its 18th
// field. file and line go into the errors, each a *ParseError naming the
// field and quoting its value. More than three extra tokens is an error.
func ParseAleaFields(extra []string, file string, line int) (AleaFields, error) {
	var a AleaFields
	fail := func(field int, err error) error {
		return &ParseError{File: file, Line: line, Field: field, Name: aleaFieldNames[field], Err: err}
	}
	if len(extra) > 3 {
		return a, &ParseError{File: file, Line: line, Err: fmt.Errorf("has %d fields, want at most 21", NumFields+len(extra))}
	}
	if len(extra) > 0 && extra[0] != "-1" {
		ran, err := parseRan(extra[0])
		if err != nil {
			return a, fail(FieldRan, err)
		}
		a.Ran = ran
	}
	if len(extra) > 1 {
		a.Queue = extra[1]
	}
	if len(extra) > 2 && extra[2] != "-1" {
		r, err := ParseRequest(extra[2])
		if err != nil {
			return a, fail(FieldRequest, err)
		}
		a.Request, a.HasRequest = r, true
	}
	return a, nil
}

// parseRan parses "{id,id,...}".
func parseRan(s string) ([]int64, error) {
	body, open := strings.CutPrefix(s, "{")
	body, closed := strings.CutSuffix(body, "}")
	if !open || !closed || body == "" {
		return nil, fmt.Errorf("%q is not a list {id,id,...}", clipValue(s))
	}
	ids := make([]int64, 0, strings.Count(body, ",")+1)
	for _, t := range strings.Split(body, ",") {
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%q: node id %q is not a non-negative integer", clipValue(s), t)
		}
		ids = append(ids, v)
	}
	return ids, nil
}

// clipValue shortens a long field quoted in an error.
func clipValue(s string) string {
	if len(s) <= 80 {
		return s
	}
	return s[:80] + "..."
}
