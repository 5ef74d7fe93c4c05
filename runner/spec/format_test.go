package spec

import "testing"

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
