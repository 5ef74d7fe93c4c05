package spec

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// The top-level block types, in the order Parse decodes them.
const (
	blockExperiment = "experiment"
	blockVariable   = "variable"
	blockLocals     = "locals"
	blockSweep      = "sweep"
	blockOutput     = "output"
)

var topSchema = schema{
	what: "an experiment file",
	blocks: map[string]int{
		blockExperiment: 1, blockVariable: 1, blockLocals: 0,
		kindCluster: 1, kindWorkload: 1, kindPolicy: 1,
		blockSweep: 0, blockOutput: 0,
	},
}

// decoder holds the state of one Parse.
type decoder struct {
	file, dir string
	diags     hcl.Diagnostics
	ctx       *hcl.EvalContext
	// declared holds, for each reference root, the declared names and
	// where each is declared.
	declared map[string]map[string]hcl.Range
	// The decoded blocks by name; a nil entry is a block that failed.
	clusters  map[string]*Cluster
	workloads map[string]*Workload
	policies  map[string]*Policy
	// varied holds the targets of every vary block, those that failed
	// too, so that a filter on a failed axis adds no error of its own.
	varied map[string]hcl.Range
	// swept holds the values of the sweep's workload, policy, load factor
	// and seed axes, keyed as filters key them, each value as its
	// canonical string (a block by name, failed blocks included). An
	// axis that could not be read whole is missing: what it lacks proves
	// nothing, so nothing is reported about it.
	swept map[string]map[string]bool
	// merges are the merge workloads, whose parts are resolved once every
	// workload is decoded.
	merges []pendingMerge
	// runOptions marks the workloads whose block sets allow_overrun or
	// missing_estimate: a merge's part that does must agree with the merge.
	runOptions map[*Workload]bool
	// slurm holds the slurm.conf files that slurm_conf arguments name,
	// by resolved path, each read once (slurmconf.go).
	slurm map[string]*slurmFile
	// cmdStrings holds the variables set on the command line whose value
	// is a string, and localExprs the local values' expressions: a path
	// that comes from the command line is relative to the current
	// directory (fromCommandLine).
	cmdStrings map[string]string
	localExprs map[string]hcl.Expression
}

// Parse decodes the experiment file called filename, whose contents are
// src. vars are overrides of the file's variables from the command line,
// name to value; each value is read as an HCL expression (so 1.5,
// [0.5, 1] and "x" are a number, a list and a string), and a value that
// is not one, or that refers to anything (a bare word such as fcfs or a
// path such as results/x), is taken as the literal string; but a value
// that opens a list, object, parenthesis, quoted string or function call
// and does not parse is an error. A variable that declares a type (type =
// number, list(number), …, as in Terraform) converts its value, from vars
// or its default, to that type, and a value that does not convert is an
// error.
//
// A file longer than MaxFileSize or nested deeper than MaxDepth is
// refused with one error where the limit is passed, before it is parsed.
//
// Parse reports every problem it finds in the file, not just the first,
// each as a diagnostic with the file, line and column of its cause; where
// a name is unknown, the detail suggests the closest known one. A problem
// with a var (an undeclared name, a value that is no valid expression) has
// no Subject, as the command line is no file, and its detail begins with
// the flag, "--var NAME=VALUE: "; an error where such a value is used,
// directly or through a local value, ends by naming the flag too. It returns
// a nil Experiment if any diagnostic is an error; warnings come with a
// usable Experiment.
//
// Relative paths in the file (a cluster's machines file, a trace given as
// a path) are resolved against filename's directory, except one that
// begins with the value of a variable set in vars, which is resolved
// against the current directory as any path on a command line is; Parse reads machines
// files and checks that trace paths exist, but reads no trace. It builds
// every model and policy once, with the file's parameters, so that a bad
// parameter is reported here rather than when a run starts.
func Parse(filename string, src []byte, vars map[string]string) (*Experiment, hcl.Diagnostics) {
	f, diags := ParseSyntax(src, filename)
	if diags.HasErrors() {
		return nil, diags
	}
	body := f.Body.(*hclsyntax.Body)
	if diags = append(diags, outOfRange(body)...); diags.HasErrors() {
		return nil, diags
	}
	exp := &Experiment{File: filename, Dir: filepath.Dir(filename), Hash: contentHash(src, filename)}
	d := &decoder{
		file: filename, dir: exp.Dir, diags: diags,
		clusters: map[string]*Cluster{}, workloads: map[string]*Workload{}, policies: map[string]*Policy{},
		cmdStrings: map[string]string{}, localExprs: map[string]hcl.Expression{},
		runOptions: map[*Workload]bool{},
	}
	_, blocks := d.content(body, topSchema)
	byType := make(map[string][]*hclsyntax.Block)
	for _, b := range blocks {
		byType[b.Type] = append(byType[b.Type], b)
	}
	declared := d.declare(byType)

	d.ctx = &hcl.EvalContext{Functions: functions(), Variables: map[string]cty.Value{
		kindCluster:  refObject(kindCluster, d.declared[kindCluster]),
		kindWorkload: refObject(kindWorkload, d.declared[kindWorkload]),
		kindPolicy:   refObject(kindPolicy, d.declared[kindPolicy]),
	}}
	d.ctx.Variables[rootVar] = d.variables(declared[blockVariable], vars)
	d.locals(byType[blockLocals])

	start := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
	if b := d.single(byType[blockExperiment]); b != nil {
		d.experiment(exp, b)
	} else {
		d.errorf(start, "Missing experiment block", "An experiment file needs one experiment \"NAME\" { … } block.")
	}
	if len(declared[kindCluster]) == 0 {
		d.errorf(start, "Missing cluster block", "An experiment file needs at least one cluster \"NAME\" { … } block.")
	}
	for _, b := range declared[kindCluster] {
		c := d.cluster(b)
		d.clusters[b.Labels[0]] = c
		if c != nil {
			exp.Clusters = append(exp.Clusters, c)
		}
	}
	for _, b := range declared[kindWorkload] {
		w := d.workload(b)
		d.workloads[b.Labels[0]] = w
		if w != nil {
			exp.Workloads = append(exp.Workloads, w)
		}
	}
	d.resolveMerges()
	for _, b := range declared[kindPolicy] {
		p := d.policy(b)
		d.policies[b.Labels[0]] = p
		if p != nil {
			exp.Policies = append(exp.Policies, p)
		}
	}
	if b := d.single(byType[blockSweep]); b != nil {
		d.sweep(&exp.Sweep, b, declared[kindCluster])
	} else {
		d.errorf(start, "Missing sweep block", "An experiment file needs one sweep { … } block naming the workloads and policies to run.")
	}
	exp.Output = Output{Dir: "out/" + exp.Name, Jobs: true, Heatmaps: true, EETCapacity: "equal"}
	if b := d.single(byType[blockOutput]); b != nil {
		d.output(&exp.Output, b)
	}
	d.noteOverrides(body, vars)
	d.sortDiags()
	if d.diags.HasErrors() {
		return nil, d.diags
	}
	return exp, d.diags
}

// sortDiags orders the diagnostics by position, those about the file
// first, so that they read from the top of the file down.
func (d *decoder) sortDiags() {
	sort.SliceStable(d.diags, func(i, j int) bool {
		a, b := d.diags[i].Subject, d.diags[j].Subject
		if a == nil || b == nil {
			return a != nil && b == nil
		}
		if (a.Filename == d.file) != (b.Filename == d.file) {
			return a.Filename == d.file
		}
		return a.Start.Byte < b.Start.Byte
	})
}

// declare records the names of the variables, locals, clusters, workloads
// and policies, reporting invalid and repeated names, and returns the
// blocks of each labelled type that are valid and first of their name.
func (d *decoder) declare(byType map[string][]*hclsyntax.Block) map[string][]*hclsyntax.Block {
	d.declared = make(map[string]map[string]hcl.Range)
	for _, root := range roots {
		d.declared[root] = make(map[string]hcl.Range)
	}
	kept := make(map[string][]*hclsyntax.Block)
	for _, kind := range []string{blockVariable, kindCluster, kindWorkload, kindPolicy} {
		root := kind
		if kind == blockVariable {
			root = rootVar
		}
		for _, b := range byType[kind] {
			if d.name(b) && d.unique(b, d.declared[root]) {
				kept[kind] = append(kept[kind], b)
			}
		}
	}
	for _, b := range byType[blockLocals] {
		for _, a := range sortedAttrs(b.Body) {
			if first, dup := d.declared[rootLocal][a.Name]; dup {
				d.errorf(a.NameRange, "Duplicate local value", "A local value named %q was already defined at %s. Local value names must be unique in the file.", a.Name, first)
				continue
			}
			d.declared[rootLocal][a.Name] = a.NameRange
		}
	}
	return kept
}

// contentHash is the hex SHA-256 of what src says, not of how it is laid
// out: its tokens without comments and line breaks, each as its type and
// its bytes. Reformatting the file (schedsweep fmt) or editing a comment
// keeps the hash, so a results folder stays resumable; any other change
// gives another. Line breaks carry no meaning in a file that parses:
// inside brackets they are free, and between a body's items they are
// required, so a file's items are the same with or without them.
func contentHash(src []byte, filename string) string {
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenComment, hclsyntax.TokenNewline, hclsyntax.TokenEOF:
			continue
		}
		h.Write(binary.AppendUvarint(n[:0], uint64(t.Type)))
		h.Write(binary.AppendUvarint(n[:0], uint64(len(t.Bytes))))
		h.Write(t.Bytes)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Format returns src in canonical HCL layout (hclwrite's): aligned equals
// signs, two-space indentation, normalized spacing. It does not check that
// src is valid; a file that does not parse comes back as unchanged as
// hclwrite can leave it.
//
// Layout must not change what a file says (its hash, which keeps a results
// folder resumable), and hclwrite can: it joins "0 .0", a number followed
// by an index, into the number "0.0" (found by FuzzFormat). Where its
// result says something else, Format returns src as it is.
func Format(src []byte) []byte {
	out := hclwrite.Format(src)
	if contentHash(out, "out.hcl") != contentHash(src, "in.hcl") {
		return src
	}
	return out
}
