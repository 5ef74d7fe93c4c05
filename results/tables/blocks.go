package tables

import (
	"fmt"
	"strings"
)

// Block is a marked block of a Markdown file, where a study's tables go:
//
//	<!-- tables:NAME ARGS -->
//	…
//	<!-- /tables:NAME -->
//
// ARGS are the arguments of schedsweep tables that print them (flags
// only; the results folder is given when the block is rewritten), so the
// file says how its tables are made.
type Block struct {
	Name    string
	Args    []string // the opening marker's arguments, split on spaces
	Body    string   // the text between the markers' lines
	Line    int      // the opening marker's line, from 1
	between [2]int   // Body's byte offsets in the file
}

const (
	openMark  = "<!-- tables:"
	closeMark = "<!-- /tables:"
	endMark   = " -->"
)

// Blocks returns the marked blocks of text, in order. An opening marker
// without its closing one, a closing one without an opening one, nested
// or repeated names are errors naming the file (path) and line.
func Blocks(path, text string) ([]Block, error) {
	var out []Block
	var open *Block
	off := 0
	for i, l := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSpace(l)
		n := i + 1
		switch {
		case strings.HasPrefix(trimmed, openMark):
			if open != nil {
				return nil, fmt.Errorf("%s:%d: block %q opens inside block %q (line %d)", path, n, trimmed, open.Name, open.Line)
			}
			inner, ok := strings.CutSuffix(strings.TrimPrefix(trimmed, openMark), endMark)
			f := strings.Fields(inner)
			if !ok || len(f) == 0 {
				return nil, fmt.Errorf("%s:%d: marker %q: want <!-- tables:NAME ARGS -->", path, n, trimmed)
			}
			for _, b := range out {
				if b.Name == f[0] {
					return nil, fmt.Errorf("%s:%d: block %q again (first at line %d)", path, n, f[0], b.Line)
				}
			}
			open = &Block{Name: f[0], Args: f[1:], Line: n, between: [2]int{off + len(l), 0}}
		case strings.HasPrefix(trimmed, closeMark):
			name, _ := strings.CutSuffix(strings.TrimPrefix(trimmed, closeMark), endMark)
			if open == nil || open.Name != name {
				return nil, fmt.Errorf("%s:%d: %q closes no open block", path, n, trimmed)
			}
			open.between[1] = off
			open.Body = text[open.between[0]:off]
			out = append(out, *open)
			open = nil
		}
		off += len(l)
	}
	if open != nil {
		return nil, fmt.Errorf("%s:%d: block %q is never closed (want <!-- /tables:%s -->)", path, open.Line, open.Name, open.Name)
	}
	return out, nil
}

// Replace returns text with block b's body replaced by body, which should
// end in a newline.
func Replace(text string, b Block, body string) string {
	return text[:b.between[0]] + body + text[b.between[1]:]
}

// Find returns the block of blocks named name.
func Find(path string, blocks []Block, name string) (Block, error) {
	var names []string
	for _, b := range blocks {
		if b.Name == name {
			return b, nil
		}
		names = append(names, b.Name)
	}
	return Block{}, fmt.Errorf("%s has no block <!-- tables:%s --> (its blocks: %s)", path, name, strings.Join(names, ", "))
}
