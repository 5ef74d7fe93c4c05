package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestFormat(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"aligns and indents",
			"cluster \"c\" {\nprocs=8\n    memory =   \"1GiB\"\n}\n",
			"cluster \"c\" {\n  procs  = 8\n  memory = \"1GiB\"\n}\n"},
		{"keeps comments",
			"# the machine\ncluster \"c\" { procs=8 } # small\n",
			"# the machine\ncluster \"c\" { procs = 8 } # small\n"},
		{"canonical input is unchanged", minimal(), minimal()},
	}
	for _, tc := range tests {
		if got := string(Format([]byte(tc.in))); got != tc.want {
			t.Errorf("Format(%s) = %q; want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzFormat checks what schedsweep fmt promises for any file that
// parses: the result parses, formatting it again changes nothing, and it
// keeps every comment and the experiment hash (README: fmt -w keeps a
// results folder resumable).
func FuzzFormat(f *testing.F) {
	for _, pattern := range []string{"../../experiments/*.hcl", "testdata/bad/*.hcl"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, diags := hclsyntax.ParseConfig(src, "in.hcl", hcl.InitialPos); diags.HasErrors() {
			return
		}
		once := Format(src)
		if _, diags := hclsyntax.ParseConfig(once, "out.hcl", hcl.InitialPos); diags.HasErrors() {
			t.Fatalf("Format(%q) = %q, which does not parse: %s", src, once, diags)
		}
		if twice := Format(once); !bytes.Equal(once, twice) {
			t.Fatalf("Format is not idempotent: %q gives %q, then %q", src, once, twice)
		}
		if got, want := contentHash(once, "out.hcl"), contentHash(src, "in.hcl"); got != want {
			t.Fatalf("Format(%q) = %q changed the hash", src, once)
		}
		if got, want := comments(once), comments(src); !slices.Equal(got, want) {
			t.Fatalf("Format(%q) = %q: got comments %q; want %q", src, once, got, want)
		}
	})
}

// comments returns src's comments in order, without surrounding space.
func comments(src []byte) []string {
	toks, _ := hclsyntax.LexConfig(src, "in.hcl", hcl.InitialPos)
	var out []string
	for _, t := range toks {
		if t.Type == hclsyntax.TokenComment {
			out = append(out, string(bytes.TrimSpace(t.Bytes)))
		}
	}
	return out
}
