package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// boundsHead is a valid experiment that the bounds tests append to.
const boundsHead = `experiment "x" { seed = 1 }
cluster "main" { procs = 16 }
workload "w" {
  model = "lublin"
  jobs  = 10
}
policy "fcfs" {}
sweep {
  cluster   = cluster.main
  workloads = [workload.w]
  policies  = [policy.fcfs]
}
`

// headLines is the number of lines of boundsHead.
var headLines = strings.Count(boundsHead, "\n")

// TestBounds checks that a file too large or nested too deep is refused
// quickly, with one error at the place the limit is passed, and that a
// file just within the limits parses. 100,000 nested brackets crashed the
// parser with a Go stack overflow.
func TestBounds(t *testing.T) {
	deep := func(open, close string, n int) string {
		return boundsHead + "locals {\n  x = " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + "\n}\n"
	}
	// The column of the token that passes MaxDepth on the line "  x = …",
	// when each level costs one token of width w (the locals block is the
	// first level).
	deepCol := func(w int) int { return len("  x = ") + (MaxDepth-1)*w + 1 }
	tests := []struct {
		name      string
		src       string
		summary   string
		line, col int // 0: no error wanted
	}{
		{"100k brackets", deep("[", "]", 100_000), "Nesting too deep", headLines + 2, deepCol(1)},
		{"100k unclosed", boundsHead + "locals {\n  x = " + strings.Repeat("[", 100_000) + "\n}\n", "Nesting too deep", headLines + 2, deepCol(1)},
		{"100k parentheses", deep("(", ")", 100_000), "Nesting too deep", headLines + 2, deepCol(1)},
		{"60k objects", deep("{a=", "}", 60_000), "Nesting too deep", headLines + 2, deepCol(3)},
		{"100k negations", deep("!", "", 100_000), "Nesting too deep", headLines + 2, deepCol(1)},
		{"20k ternaries", deep("true ? 1 : ", "", 20_000), "Nesting too deep", headLines + 2, deepCol(len("true ? 1 : ")) + len("true ")},
		{"80k indexes", boundsHead + "locals {\n  y = [1]\n  x = local.y" + strings.Repeat("[0]", 80_000) + "\n}\n", "Nesting too deep", headLines + 3, 0},
		{"100k sums", boundsHead + "locals {\n  x = 1" + strings.Repeat("+1", 100_000) + "\n}\n", "Nesting too deep", headLines + 2, len("  x = 1") + 2*(MaxDepth-1) + 1},
		{"50k interpolations", boundsHead + "locals {\n  x = " + strings.Repeat(`"${`, 50_000) + "1" + strings.Repeat(`}"`, 50_000) + "\n}\n", "Nesting too deep", headLines + 2, 0},
		{"12k template ifs", boundsHead + "locals {\n  x = \"" + strings.Repeat("%{if true}", 12_000) + strings.Repeat("%{endif}", 12_000) + "\"\n}\n", "Nesting too deep", headLines + 2, 0},
		{"25k blocks", boundsHead + strings.Repeat("output {\n", 25_000), "Nesting too deep", headLines + MaxDepth + 1, len("output {")},
		{"within the depth", deep("[", "]", MaxDepth-1), "", 0, 0},
		{"long flat list", boundsHead + "locals {\n  x = [" + strings.Repeat("-1+1, ", 40_000) + "]\n}\n", "", 0, 0},
		{"many interpolations", boundsHead + "locals {\n  x = \"" + strings.Repeat("${1}", 10_000) + "\"\n}\n", "", 0, 0},
		{"many template ifs", boundsHead + "locals {\n  x = \"" + strings.Repeat("%{if true}a%{endif}", 10_000) + "\"\n}\n", "", 0, 0},
		{"10 MB", boundsHead + "locals {\n" + strings.Repeat("  a = 1\n", 10<<20/8) + "}\n", "File too large", 0, 0},
		{"10 MB on one line", boundsHead + "locals {\n  x = \"" + strings.Repeat("a", 10<<20) + "\"\n}\n", "File too large", headLines + 2, MaxFileSize - len(boundsHead) - len("locals {\n") + 1},
		{"at the size", boundsHead + "locals {\n  x = \"" + strings.Repeat("a", MaxFileSize-len(boundsHead)-len("locals {\n  x = \"\"\n}\n")) + "\"\n}\n", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, diags := Parse("deep.hcl", []byte(tt.src), nil)
			if took := time.Since(start); took > 5*time.Second && !raceDetector {
				t.Errorf("took %v; want under 5s", took)
			}
			if tt.summary == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %v", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != tt.summary {
				t.Fatalf("got %v; want one %q error", diags, tt.summary)
			}
			got := diags[0].Subject
			if got == nil || got.Filename != "deep.hcl" {
				t.Fatalf("subject %v; want a place in deep.hcl", got)
			}
			if tt.line != 0 && got.Start.Line != tt.line {
				t.Errorf("line %d; want %d", got.Start.Line, tt.line)
			}
			if tt.col != 0 && got.Start.Column != tt.col {
				t.Errorf("column %d; want %d", got.Start.Column, tt.col)
			}
			if tt.summary == "File too large" && got.Start.Byte != MaxFileSize {
				t.Errorf("byte %d; want %d", got.Start.Byte, MaxFileSize)
			}
		})
	}
}

// TestBoundsVar checks that a --var value nested too deep is refused as
// the file would be, without a crash.
func TestBoundsVar(t *testing.T) {
	src := boundsHead + "variable \"v\" { default = 1 }\n"
	_, diags := Parse("x.hcl", []byte(src), map[string]string{"v": strings.Repeat("[", 100_000)})
	if len(diags) != 1 || !strings.Contains(diags[0].Summary, "Nesting too deep") || !strings.HasPrefix(diags[0].Detail, "--var v=[[[") {
		t.Fatalf("got %v; want one nesting error about --var v", diags)
	}
}

// TestDepthOfRealFiles checks that every experiment in the repository stays
// far from MaxDepth, so the limit refuses nothing a person would write.
func TestDepthOfRealFiles(t *testing.T) {
	files, _ := filepath.Glob("../../experiments/*.hcl")
	more, _ := filepath.Glob("testdata/*/*.hcl")
	files = append(files, more...)
	if len(files) < 7 {
		t.Fatalf("found %d experiment files; want the repository's", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		toks, _ := hclsyntax.LexConfig(src, f, hcl.InitialPos)
		if d, _ := scanDepth(toks, 1<<30); d > 30 {
			t.Errorf("%s nests %d deep; want at most 30", f, d)
		}
	}
}

// TestLocalsLinear checks that a long chain of locals, each referring to the
// one before, is evaluated once each: before, each local rebuilt the object
// of all evaluated ones, and 4,000 took 5.5 s (11,000 would take 40 s).
func TestLocalsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates 30,000 locals")
	}
	const n = 11_000
	var b strings.Builder
	b.WriteString(boundsHead + "locals {\n  l0 = 1\n")
	// In reverse order, so that the evaluation order is not the file's.
	for i := n - 1; i > 0; i-- {
		fmt.Fprintf(&b, "l%d=local.l%d+1\n", i, i-1)
	}
	b.WriteString("}\n")
	start := time.Now()
	exp, diags := Parse("locals.hcl", []byte(b.String()), nil)
	took := time.Since(start)
	if diags.HasErrors() || exp == nil {
		t.Fatal(diags)
	}
	if took > 15*time.Second {
		t.Errorf("%d locals took %v; want well under 15s", n, took)
	}
}

// TestOverrideNoteShared checks that noting where a --var value came from
// visits each local once: a chain of locals each referring twice to the one
// before used to be walked along every path, 2^60 of them here.
func TestOverrideNoteShared(t *testing.T) {
	var b strings.Builder
	b.WriteString(strings.Replace(boundsHead, "jobs  = 10", "jobs  = local.b60", 1))
	b.WriteString("variable \"v\" { default = 1 }\nlocals {\n  b0 = var.v\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "  b%d = local.b%d + local.b%d * 0\n", i, i-1, i-1)
	}
	b.WriteString("}\n")
	done := make(chan hcl.Diagnostics)
	go func() {
		_, diags := Parse("note.hcl", []byte(b.String()), map[string]string{"v": "-1"})
		done <- diags
	}()
	select {
	case diags := <-done:
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "comes from the command line: --var v=-1") {
			t.Fatalf("got %v; want an error on jobs noting --var v=-1", diags)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("noting the --var source did not finish in 20s")
	}
}
