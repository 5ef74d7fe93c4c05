package workloads

import (
	"fmt"
	"strconv"
	"strings"
)

// Header holds the facts of an SWF file's header: the "; Key: value" comment
// lines before the first job line.
//
// Entries is the header itself, every key in file order; the other fields
// are views of it, filled by the reader and by Set and Add. String facts
// given more than once are joined with "\n"; a numeric fact given twice with
// different values is an error. Numeric facts are 0 when absent.
//
// A line is a key line when, after the ';' and at most one space or tab, it
// starts with a key (letters, digits, '_', '.', '-') followed by ':' and a
// space or the end of the line. Any other non-empty comment line continues
// the entry before it: its trimmed text is appended to that entry's value
// after a "\n". Text before the first key forms an entry with the empty key.
// Comment lines that are empty after the ';' are ignored, and so are comment
// lines after the first job line.
type Header struct {
	Version        string // SWF version of the file
	Computer       string // the machine, e.g. "IBM SP2"
	Installation   string // the site
	Acknowledge    string // who provided the log
	Information    string // web sites and documents about the log
	Conversion     string // who converted the log to SWF, and when
	Preemption     string // "No", "Yes", "Double" or "TS"
	TimeZoneString string // the site's time zone, e.g. "Europe/Stockholm"
	StartTime      string // the log's start, as date(1) prints it
	EndTime        string // the log's end, as date(1) prints it
	AllowOveruse   string // whether jobs may run past their requested time

	MaxJobs       int64 // number of jobs in the log
	MaxRecords    int64 // number of job lines in the log
	UnixStartTime int64 // submit time 0 as seconds since 1970 UTC
	TimeZone      int64 // deprecated offset in seconds; see TimeZoneString
	MaxNodes      int64 // nodes of the machine
	MaxProcs      int64 // processors of the machine
	MaxRuntime    int64 // longest run time allowed, seconds
	MaxMemory     int64 // most memory a processor may use, KB
	MaxQueues     int64 // number of queues
	MaxPartitions int64 // number of partitions

	Queues     []Label  // the "; Queue: 1 batch" lines
	Partitions []Label  // the "; Partition: 1 main" lines
	Notes      []string // each "; Note:" with its continuation lines

	Entries []HeaderEntry // every entry, in file order
}

// Label is a numbered description from the header: a queue or a partition.
type Label struct {
	Number int64  // the number used in the job lines (field 15 or 16)
	Text   string // the rest of the line and its continuations
}

// HeaderEntry is one key of a header with its value. Continuation lines are
// part of Value, separated by "\n".
type HeaderEntry struct {
	Key   string
	Value string
	Line  int // line of the key in the file; 0 if set by a program
}

// Get returns the value of the first entry with the given key (matched
// exactly, case included) and whether there is one.
func (h *Header) Get(key string) (string, bool) {
	for _, e := range h.Entries {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}

// Set replaces the entries with the given key by one entry, at the place of
// the first, or appends it if there is none, and updates the typed fields.
// It returns an error, and changes nothing, if key is not a valid key or if
// value is not valid for a known key (a number for MaxProcs, for example).
func (h *Header) Set(key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	old := h.Entries
	var es []HeaderEntry
	done := false
	for _, e := range old {
		if e.Key != key {
			es = append(es, e)
		} else if !done {
			es = append(es, HeaderEntry{Key: key, Value: value})
			done = true
		}
	}
	if !done {
		es = append(es, HeaderEntry{Key: key, Value: value})
	}
	return h.replace(es, old)
}

// Add appends an entry, as for a further "Note" or "Queue", and updates the
// typed fields. It returns an error, and changes nothing, on the same
// conditions as Set. The empty key adds free text.
func (h *Header) Add(key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	old := h.Entries
	es := append(old[:len(old):len(old)], HeaderEntry{Key: key, Value: value})
	return h.replace(es, old)
}

func (h *Header) replace(es, old []HeaderEntry) error {
	h.Entries = es
	if err := h.derive(); err != nil {
		h.Entries = old
		_ = h.derive() // old entries derived before, so this cannot fail
		return err
	}
	return nil
}

func checkKey(key string) error {
	if key != "" && keyLen(key) != len(key) {
		return fmt.Errorf("invalid header key %q", key)
	}
	return nil
}

// keyLen returns the length of the run of key characters at the start of s.
func keyLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '_' || c == '.' || c == '-') {
			return i
		}
	}
	return len(s)
}

// addComment adds the comment line body (the text after ';') read at line n.
// The typed fields are filled in later by derive.
func (h *Header) addComment(body []byte, n int) {
	s := strings.TrimRight(string(body), " \t\r\n\v\f")
	rest := strings.TrimLeft(s, " \t\r\n\v\f")
	if rest == "" {
		return
	}
	if indent := len(s) - len(rest); indent <= 1 {
		if k := keyLen(rest); k > 0 && k < len(rest) && rest[k] == ':' &&
			(k+1 == len(rest) || isSpace(rest[k+1])) {
			h.Entries = append(h.Entries, HeaderEntry{
				Key:   rest[:k],
				Value: strings.TrimSpace(rest[k+1:]),
				Line:  n,
			})
			return
		}
	}
	if len(h.Entries) == 0 {
		h.Entries = append(h.Entries, HeaderEntry{Value: rest, Line: n})
		return
	}
	last := &h.Entries[len(h.Entries)-1]
	if last.Value == "" {
		last.Value = rest
	} else {
		last.Value += "\n" + rest
	}
}

// derive fills the typed fields from Entries.
func (h *Header) derive() error {
	*h = Header{Entries: h.Entries}
	strs := map[string]*string{
		"Version": &h.Version, "Computer": &h.Computer, "Installation": &h.Installation,
		"Acknowledge": &h.Acknowledge, "Information": &h.Information,
		"Conversion": &h.Conversion, "Preemption": &h.Preemption,
		"TimeZoneString": &h.TimeZoneString, "StartTime": &h.StartTime,
		"EndTime": &h.EndTime, "AllowOveruse": &h.AllowOveruse,
	}
	ints := map[string]*int64{
		"MaxJobs": &h.MaxJobs, "MaxRecords": &h.MaxRecords,
		"UnixStartTime": &h.UnixStartTime, "TimeZone": &h.TimeZone,
		"MaxNodes": &h.MaxNodes, "MaxProcs": &h.MaxProcs, "MaxRuntime": &h.MaxRuntime,
		"MaxMemory": &h.MaxMemory, "MaxQueues": &h.MaxQueues,
		"MaxPartitions": &h.MaxPartitions,
	}
	seen := map[string]int{} // numeric key → index of its first entry
	for i, e := range h.Entries {
		fail := func(format string, args ...any) error {
			return &ParseError{Line: e.Line, Err: fmt.Errorf("header %s: "+format, append([]any{e.Key}, args...)...)}
		}
		if p, ok := strs[e.Key]; ok {
			if *p != "" {
				*p += "\n"
			}
			*p += e.Value
			continue
		}
		if p, ok := ints[e.Key]; ok {
			v, err := strconv.ParseInt(e.Value, 10, 64)
			switch {
			case err != nil:
				return fail("%q is not an integer", e.Value)
			case v < 0 && e.Key != "TimeZone":
				return fail("%q is negative", e.Value)
			}
			if j, ok := seen[e.Key]; ok && *p != v {
				return fail("%q differs from the value %q on line %d", e.Value, h.Entries[j].Value, h.Entries[j].Line)
			}
			seen[e.Key] = i
			*p = v
			continue
		}
		switch e.Key {
		case "Note":
			h.Notes = append(h.Notes, e.Value)
		case "Queue", "Partition":
			k := strings.IndexAny(e.Value, " \t\n")
			if k < 0 {
				k = len(e.Value)
			}
			v, err := strconv.ParseInt(e.Value[:k], 10, 64)
			if err != nil || v < 0 {
				return fail("%q does not start with a %s number", e.Value, strings.ToLower(e.Key))
			}
			l := Label{Number: v, Text: strings.TrimSpace(e.Value[k:])}
			if e.Key == "Queue" {
				h.Queues = append(h.Queues, l)
			} else {
				h.Partitions = append(h.Partitions, l)
			}
		}
	}
	return nil
}
