package slurmconf

// This file reads the text of slurm.conf into lines of key=value pairs, as
// Slurm 22.05's src/common/parse_config.c does (s_p_parse_file,
// _get_next_line, _keyvalue_regex, _parse_include_directive).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
)

// Pos is where a line of slurm.conf begins: its file and line number
// (from 1). A line continued with a final backslash has the number of its
// first physical line.
type Pos struct {
	File string
	Line int
}

// String is "file:line", or the file alone for Line 0 (the whole file).
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Pair is one key=value of a line, its key spelled as Slurm spells it.
type Pair struct {
	Key, Value string
	Pos        Pos
}

// Line is one option of the file: its first pair (Key=Value) and, for
// NodeName, PartitionName and the other options that take further keys
// (DownNodes, NodeSet, FrontendName, SlurmctldHost), the pairs after it.
type Line struct {
	Pair
	More []Pair
}

// Error is a fault in a slurm.conf, at a line and, when known, a key and
// its value: "slurm.conf:12: MaxTime=\"1-x\": not a Slurm time".
type Error struct {
	Pos        Pos
	Key, Value string // "" when the fault is the line's, not a key's
	Err        error
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %v", e.Pos, e.Err)
	}
	return fmt.Sprintf("%s: %s=%q: %v", e.Pos, e.Key, e.Value, e.Err)
}

// Unwrap returns the fault without its place.
func (e *Error) Unwrap() error { return e.Err }

// maxIncludeDepth bounds Include inside included files, against a cycle.
const maxIncludeDepth = 16

// ErrNoInclude is wrapped by Parse's error for an Include line: Parse
// reads text without a file system; Read follows Include.
var ErrNoInclude = errors.New("Include needs the file on disk: read the file by its path")

// reader reads a file and the files it includes into lines.
type reader struct {
	open    func(path string) ([]byte, error) // nil: Include is an error
	lines   []Line
	cluster string // ClusterName so far, for %c in an Include path
	depth   int
}

// lower is strings.ToLower for the ASCII keys of slurm.conf.
func lower(s string) string { return strings.ToLower(s) }

// file reads the text data of the file named name.
func (r *reader) file(name string, data []byte) error {
	phys := strings.Split(string(data), "\n")
	for i := 0; i < len(phys); i++ {
		pos := Pos{name, i + 1}
		text := stripComment(strings.TrimRight(phys[i], "\r"))
		for continued(text) && i+1 < len(phys) {
			text = strings.TrimRightFunc(text, isBlank)
			text = text[:len(text)-1]
			i++
			text += stripComment(strings.TrimRight(phys[i], "\r"))
		}
		text = unescape(text)
		if strings.TrimSpace(text) == "" {
			continue
		}
		if err := r.line(pos, text); err != nil {
			return err
		}
	}
	return nil
}

// stripComment cuts a line at its first # that is not escaped (preceded
// by an odd number of backslashes), as _strip_comments does: quotes do not
// protect a #.
func stripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '#' && bs%2 == 0:
			return s[:i]
		case s[i] == '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// continued reports whether s ends, before trailing blanks, in an odd
// number of backslashes: the line continues on the next one.
func continued(s string) bool {
	s = strings.TrimRightFunc(s, isBlank)
	bs := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		bs++
	}
	return bs%2 == 1
}

// unescape drops each backslash and keeps the character after it, as
// _strip_escapes does ("\#" is #, "\\" is \).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isBlank(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// line reads one logical line: an Include, or an option with, for the
// options that take them, further pairs.
func (r *reader) line(pos Pos, text string) error {
	if rest, ok := includeOf(text); ok {
		return r.include(pos, rest)
	}
	first, next, err := scanPair(text, 0)
	if err != nil {
		return &Error{Pos: pos, Err: err}
	}
	key, ok := topCanon[lower(first.Key)]
	if !ok {
		return &Error{Pos: pos, Key: first.Key, Value: first.Value, Err: fmt.Errorf("unknown option %s%s", first.Key, didYouMean(first.Key, topKeys))}
	}
	l := Line{Pair: Pair{Key: key, Value: first.Value, Pos: pos}}
	if !lineKeys[key] {
		if rest := strings.TrimSpace(text[next:]); rest != "" {
			return &Error{Pos: pos, Key: key, Value: first.Value,
				Err: fmt.Errorf("%q follows the value: Slurm takes one option per line, except on NodeName, PartitionName and the like", clip(rest))}
		}
	} else {
		for {
			p, n, err := scanPair(text, next)
			if err == errNoPair {
				break
			}
			if err != nil {
				return &Error{Pos: pos, Key: key, Value: first.Value, Err: err}
			}
			p.Pos = pos
			l.More = append(l.More, p)
			next = n
		}
	}
	if key == "ClusterName" {
		r.cluster = first.Value
	}
	r.lines = append(r.lines, l)
	return nil
}

// includeOf returns the rest of an Include line ("include" in any case,
// then blanks), and false for any other line.
func includeOf(text string) (string, bool) {
	t := strings.TrimLeftFunc(text, isBlank)
	if len(t) < len("include")+1 || lower(t[:len("include")]) != "include" || !isBlank(rune(t[len("include")])) {
		return "", false
	}
	return strings.TrimSpace(t[len("include"):]), true
}

// include reads the file an Include line names: one path (no blanks), %c
// standing for ClusterName in lower case, relative to the including
// file's folder.
func (r *reader) include(pos Pos, path string) error {
	fail := func(err error) error { return &Error{Pos: pos, Key: "Include", Value: path, Err: err} }
	switch {
	case path == "":
		return &Error{Pos: pos, Err: errors.New("Include names no file")}
	case strings.ContainsFunc(path, isBlank):
		return fail(errors.New("Include takes one file name, without blanks"))
	case r.open == nil:
		return fail(ErrNoInclude)
	case r.depth >= maxIncludeDepth:
		return fail(fmt.Errorf("included files nest deeper than %d: a cycle?", maxIncludeDepth))
	}
	name := path
	if strings.Contains(name, "%c") {
		if r.cluster == "" {
			return fail(errors.New("%c stands for ClusterName, which no line above sets"))
		}
		name = strings.ReplaceAll(name, "%c", lower(r.cluster))
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(pos.File), name)
	}
	data, err := r.open(name)
	if err != nil {
		return fail(err)
	}
	r.depth++
	defer func() { r.depth-- }()
	return r.file(name, data)
}

// errNoPair is scanPair's answer when only blanks are left.
var errNoPair = errors.New("no pair")

// scanPair reads the key=value pair at s[i:], after blanks: a key of
// letters, digits, _ and ., blanks, =, blanks, and a value that is either
// "quoted" (blanks allowed, no quote inside) or a run of non-blanks. It
// returns where the scan stopped. Slurm's pattern (_keyvalue_regex) also
// lets an operator (+=, -=, *=, /=) stand before = and reads some
// malformed values rather than refuse them; here an operator, an empty
// value, an unclosed quote and text glued to a closing quote are errors.
func scanPair(s string, i int) (Pair, int, error) {
	for i < len(s) && isBlank(rune(s[i])) {
		i++
	}
	if i == len(s) {
		return Pair{}, i, errNoPair
	}
	start := i
	for i < len(s) && isKeyByte(s[i]) {
		i++
	}
	key := s[start:i]
	for i < len(s) && isBlank(rune(s[i])) {
		i++
	}
	if key == "" || i == len(s) || s[i] != '=' {
		if i < len(s) && strings.IndexByte("+-*/", s[i]) >= 0 && i+1 < len(s) && s[i+1] == '=' && key != "" {
			return Pair{}, i, fmt.Errorf("%s%c=: the operators +=, -=, *= and /= are not read here; write %s=VALUE", key, s[i], key)
		}
		return Pair{}, i, fmt.Errorf("%q is not a key=value pair", clip(strings.TrimSpace(s[start:])))
	}
	i++ // =
	for i < len(s) && isBlank(rune(s[i])) {
		i++
	}
	if i == len(s) {
		return Pair{}, i, fmt.Errorf("%s= has no value", key)
	}
	if s[i] == '"' {
		end := strings.IndexByte(s[i+1:], '"')
		if end < 0 {
			return Pair{}, i, fmt.Errorf("%s: the quote of %q is not closed", key, clip(s[i:]))
		}
		v := s[i+1 : i+1+end]
		i += end + 2
		if i < len(s) && !isBlank(rune(s[i])) {
			return Pair{}, i, fmt.Errorf("%s: %q follows the closing quote without a blank", key, clip(s[i:]))
		}
		return Pair{Key: key, Value: v}, i, nil
	}
	vs := i
	for i < len(s) && !isBlank(rune(s[i])) {
		i++
	}
	return Pair{Key: key, Value: s[vs:i]}, i, nil
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// clip shortens s for a message.
func clip(s string) string {
	const most = 60
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// didYouMean returns ` (did you mean X?)` for the known key closest to
// key (internal/suggest), or "".
func didYouMean(key string, known []string) string {
	best := suggest.Closest(key, known)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// readLines reads the file at path and those it includes.
func readLines(path string) ([]Line, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := &reader{open: os.ReadFile}
	if err := r.file(path, data); err != nil {
		return nil, err
	}
	return r.lines, nil
}

// readLinesFS reads the file at path in fsys and those it includes.
func readLinesFS(fsys fs.FS, path string) ([]Line, error) {
	open := func(p string) ([]byte, error) { return fs.ReadFile(fsys, filepath.ToSlash(filepath.Clean(p))) }
	data, err := open(path)
	if err != nil {
		return nil, err
	}
	r := &reader{open: open}
	if err := r.file(path, data); err != nil {
		return nil, err
	}
	return r.lines, nil
}

// parseLines reads data, the text of a file named name, without
// following Include.
func parseLines(name string, data []byte) ([]Line, error) {
	r := &reader{}
	if err := r.file(name, data); err != nil {
		return nil, err
	}
	return r.lines, nil
}
