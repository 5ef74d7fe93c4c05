package spec

// This file bounds what parsing a file may cost: its size, and how deeply
// its expressions nest. HCL's parser descends recursively, about 10 KB of
// goroutine stack per bracket, so 100,000 nested brackets exhaust Go's 1 GB
// stack limit, a fatal error no recover catches; the evaluator and
// hclsyntax.VisitAll recurse over the tree the parser builds. Both bounds
// are checked on the raw bytes and tokens, before the parser runs.

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxFileSize is the largest experiment file Parse reads, in bytes: 256 KiB.
// The files in experiments/ are under 6 KB, and a generated one with
// thousands of locals stays below the limit. Parsing and evaluating costs
// up to about 600 bytes of memory per byte of input (tokens, syntax tree,
// values): measured with schedsweep validate, a list of 131,000 numbers
// filling 256 KiB peaks at 160 MB, a chain of 12,900 locals at 97 MB; at 512
// KiB the list took 224 MB.
const MaxFileSize = 256 << 10

// MaxDepth is how deeply an expression may nest. Each open bracket, brace,
// parenthesis, string template, template interpolation and %{ if } or
// %{ for } counts one, and so does each operator, attribute step (the dots
// of var.a.b) and index within one item of a list, object, call or body (an item ends at a comma,
// and in a body or object at a line break), since the parser and the
// evaluator recurse through those too. Real files stay under 20; at 256
// levels the parser's stack stays under about 3 MB.
const MaxDepth = 256

// ParseSyntax parses src as HCL, as hclsyntax.ParseConfig does, after
// checking that src is no longer than MaxFileSize and nests no deeper than
// MaxDepth; either excess is an error at the place it happens, and the file
// is then not parsed.
func ParseSyntax(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if diags := checkBounds(src, filename); diags.HasErrors() {
		return nil, diags
	}
	return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
}

// checkBounds reports a file larger than MaxFileSize, at its byte
// MaxFileSize, or else the first place its tokens nest deeper than
// MaxDepth.
func checkBounds(src []byte, filename string) hcl.Diagnostics {
	if len(src) > MaxFileSize {
		pos := posAt(src, MaxFileSize)
		return hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: "File too large",
			Detail:  fmt.Sprintf("The file is longer than %d bytes (%d KiB), the largest experiment file read; it goes past that here. An experiment file describes a sweep in a few kilobytes; a list of values that long belongs in a trace or a file the experiment names.", MaxFileSize, MaxFileSize>>10),
			Subject: &hcl.Range{Filename: filename, Start: pos, End: pos},
		}}
	}
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return checkDepth(toks)
}

// posAt is the position of byte offset in src: its line, and its column
// counted in characters as HCL counts them (close enough for a byte in a
// line of text).
func posAt(src []byte, offset int) hcl.Pos {
	pos := hcl.Pos{Line: 1, Column: 1, Byte: offset}
	lineStart := 0
	for i, b := range src[:offset] {
		if b == '\n' {
			pos.Line++
			lineStart = i + 1
		}
	}
	pos.Column = utf8.RuneCount(src[lineStart:offset]) + 1
	return pos
}

// nestLevel is one open bracket while checkDepth scans: what opened it,
// and how many steps (operators, attribute steps, nested brackets) the
// current item inside it has taken.
type nestLevel struct {
	open  hclsyntax.TokenType
	steps int
}

// checkDepth reports the first token at which toks nest deeper than
// MaxDepth, counted as MaxDepth's comment says.
func checkDepth(toks hclsyntax.Tokens) hcl.Diagnostics {
	_, over := scanDepth(toks, MaxDepth)
	if over == nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Nesting too deep",
		Detail:  fmt.Sprintf("The expression here is nested more than %d levels deep (each bracket, string template, operator and attribute step counts one), the deepest an experiment file may go; real files need fewer than 20. The file is not read further.", MaxDepth),
		Subject: over.Range.Ptr(),
	}}
}

// scanDepth returns how deeply toks nest, counted as MaxDepth's comment
// says, and the first token at which they pass limit, if any; it stops
// there.
func scanDepth(toks hclsyntax.Tokens, limit int) (deepest int, over *hclsyntax.Token) {
	levels := []nestLevel{{open: hclsyntax.TokenOBrace}} // the file's body
	depth := 0                                           // open levels beyond the body, plus every level's steps
	afterControl := false                                // the token follows %{
	prev := hclsyntax.TokenNil
	for i := range toks {
		t := &toks[i]
		if i > 0 {
			prev = toks[i-1].Type
		}
		top := &levels[len(levels)-1]
		control := afterControl
		afterControl = false
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			if t.Type == hclsyntax.TokenOBrack && endsTerm(prev) {
				top.steps++ // an index: x[i][j] nests as x[i] does
				depth++
			}
			levels = append(levels, nestLevel{open: t.Type})
			depth++
			afterControl = t.Type == hclsyntax.TokenTemplateControl
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if len(levels) > 1 { // a stray closer is the parser's to report
				depth -= top.steps + 1
				levels = levels[:len(levels)-1]
			}
		case hclsyntax.TokenComma:
			depth -= top.steps
			top.steps = 0
		case hclsyntax.TokenNewline, hclsyntax.TokenComment:
			// A line comment holds the line break that ends it.
			if top.open == hclsyntax.TokenOBrace && (t.Type == hclsyntax.TokenNewline || bytes.HasSuffix(t.Bytes, []byte("\n"))) {
				depth -= top.steps
				top.steps = 0
			}
		case hclsyntax.TokenIdent:
			// %{ if … } and %{ for … } open a nested part of the
			// template they are in; %{ endif } and %{ endfor } close it.
			if !control || len(levels) < 2 {
				break
			}
			outer := &levels[len(levels)-2]
			switch string(t.Bytes) {
			case "if", "for":
				outer.steps++
				depth++
			case "endif", "endfor":
				if outer.steps > 0 {
					outer.steps--
					depth--
				}
			}
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash,
			hclsyntax.TokenPercent, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
			hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan,
			hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang,
			hclsyntax.TokenQuestion, hclsyntax.TokenDot:
			top.steps++
			depth++
		}
		deepest = max(deepest, depth)
		if depth > limit {
			return deepest, t
		}
	}
	return deepest, nil
}

// endsTerm reports whether a token of type ty can end an expression term,
// so that a [ after it is an index rather than a list.
func endsTerm(ty hclsyntax.TokenType) bool {
	switch ty {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
		hclsyntax.TokenCBrace, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
		return true
	}
	return false
}
