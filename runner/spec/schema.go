package spec

// This file checks a body's shape against what a block may hold: known
// arguments, known nested blocks, their labels, and names that repeat.

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// schema says what a body may contain.
type schema struct {
	what   string         // the body's owner in messages: "a cluster block"
	attrs  []string       // argument names
	blocks map[string]int // nested block types and their number of labels
}

// content checks body against s and returns its arguments by name and its
// nested blocks in file order. Unknown arguments and blocks, and blocks with
// the wrong number of labels, are reported and left out.
func (d *decoder) content(body *hclsyntax.Body, s schema) (map[string]*hclsyntax.Attribute, []*hclsyntax.Block) {
	attrs := make(map[string]*hclsyntax.Attribute)
	for _, a := range sortedAttrs(body) {
		if slices.Contains(s.attrs, a.Name) {
			attrs[a.Name] = a
			continue
		}
		detail := fmt.Sprintf("An argument named %q is not expected in %s.", a.Name, s.what)
		if _, isBlock := s.blocks[a.Name]; isBlock {
			detail += fmt.Sprintf(" %q is a block: write %s { … } without the equals sign.", a.Name, a.Name)
		} else {
			detail = withSuggestion(detail, a.Name, s.attrs)
		}
		d.errorf(a.NameRange, "Unsupported argument", "%s", detail)
	}
	var blocks []*hclsyntax.Block
	types := sortedKeys(s.blocks)
	for _, b := range body.Blocks {
		labels, ok := s.blocks[b.Type]
		if !ok {
			detail := fmt.Sprintf("Blocks of type %q are not expected in %s.", b.Type, s.what)
			if slices.Contains(s.attrs, b.Type) {
				detail += fmt.Sprintf(" %q is an argument: write %s = …", b.Type, b.Type)
			} else {
				detail = withSuggestion(detail, b.Type, types)
			}
			d.errorf(b.TypeRange, "Unsupported block type", "%s", detail)
			continue
		}
		if d.labels(b, labels) {
			blocks = append(blocks, b)
		}
	}
	return attrs, blocks
}

// labels checks that b has want labels.
func (d *decoder) labels(b *hclsyntax.Block, want int) bool {
	switch {
	case len(b.Labels) < want:
		d.errorf(b.OpenBraceRange, "Missing name for "+b.Type+" block",
			"A %s block needs a name, as in %s \"NAME\" { … }.", b.Type, b.Type)
		return false
	case len(b.Labels) > want:
		extra := b.LabelRanges[want]
		if want == 0 {
			d.errorf(extra, "Extraneous label for "+b.Type+" block", "A %s block takes no name.", b.Type)
		} else {
			d.errorf(extra, "Extraneous label for "+b.Type+" block", "A %s block takes only a name.", b.Type)
		}
		return false
	}
	return true
}

// name checks that a block's label can be used in references: an HCL
// identifier (letters, digits, underscores and hyphens, not starting with a
// digit or hyphen).
func (d *decoder) name(b *hclsyntax.Block) bool {
	if hclsyntax.ValidIdentifier(b.Labels[0]) {
		return true
	}
	d.errorf(b.LabelRanges[0], "Invalid name", "%q cannot name a %s block: a name starts with a letter or underscore "+
		"and holds only letters, digits, underscores and hyphens, so that %s.NAME can refer to it.", b.Labels[0], b.Type, b.Type)
	return false
}

// unique reports a block whose label repeats an earlier one's of the same
// type and returns false for it; seen holds the earlier ones' ranges.
func (d *decoder) unique(b *hclsyntax.Block, seen map[string]hcl.Range) bool {
	name := b.Labels[0]
	if first, dup := seen[name]; dup {
		d.errorf(b.LabelRanges[0], "Duplicate "+b.Type+" block",
			"A %s block named %q was already defined at %s. Names must be unique within a block type.", b.Type, name, first)
		return false
	}
	seen[name] = b.DefRange()
	return true
}

// single reports every block after the first of blocks, a type that may
// appear once, and returns the first (nil if none).
func (d *decoder) single(blocks []*hclsyntax.Block) *hclsyntax.Block {
	for _, b := range blocks[min(1, len(blocks)):] {
		d.errorf(b.DefRange(), "Duplicate "+b.Type+" block",
			"Only one %s block is allowed; the first is at %s.", b.Type, blocks[0].DefRange())
	}
	if len(blocks) == 0 {
		return nil
	}
	return blocks[0]
}

// required reports a missing required argument and returns false.
func (d *decoder) required(b *hclsyntax.Block, attrs map[string]*hclsyntax.Attribute, name, hint string) bool {
	if attrs[name] != nil {
		return true
	}
	d.errorf(b.DefRange(), "Missing required argument", "The argument %q is required in a %s block%s.", name, b.Type, hint)
	return false
}

// errorf records an error diagnostic at rng.
func (d *decoder) errorf(rng hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr(),
	})
}

// warnf records a warning diagnostic at rng.
func (d *decoder) warnf(rng hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr(),
	})
}

// quoteList renders names as "a", "b" or "c".
func quoteList(names []string) string { return orList(names, strconv.Quote) }

// lastOf returns whichever of the attributes, nil ones aside, stands last
// in the file: the one a conflict between them is reported on.
func lastOf(attrs ...*hclsyntax.Attribute) *hclsyntax.Attribute {
	var last *hclsyntax.Attribute
	for _, a := range attrs {
		if a != nil && (last == nil || a.SrcRange.Start.Byte > last.SrcRange.Start.Byte) {
			last = a
		}
	}
	return last
}
