package results

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// TestKeptZstd checks that the codec arrow-go writes zstd pages with is
// ours, that it compresses byte for byte as arrow-go's own codec does, and
// that what it writes reads back.
func TestKeptZstd(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := c.(*keptZstd)
	if !ok {
		t.Fatalf("arrow-go's zstd codec is %T; want *keptZstd", c)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 16 << 10, 300 << 10} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(16)) // compressible, not trivially
		}
		for range 3 { // later calls reuse a kept encoder
			got := k.EncodeLevel(nil, src, writeLevel)
			want := k.Codec.EncodeLevel(nil, src, writeLevel)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d bytes: kept encoder gives %d bytes, arrow-go's %d", n, len(got), len(want))
			}
			back, err := k.DecodeWithError(nil, got)
			if err != nil || len(back) != len(src) || !bytes.Equal(back, src) {
				t.Fatalf("%d bytes: round trip gave %d bytes, error %v", n, len(back), err)
			}
		}
	}
}

// TestWritersUseKeptZstd checks that the writers compress at writeLevel,
// through the kept encoders: at another level every page would go to
// arrow-go's pooled ones and the free list would stay empty.
func TestWritersUseKeptZstd(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	k := c.(*keptZstd)
	for len(k.free) > 0 {
		<-k.free
	}
	path := filepath.Join(t.TempDir(), "utilization.parquet")
	meta := Metadata{ToolVersion: "test", ExperimentFile: "test.hcl", ExperimentHash: "0"}
	if err := WriteUtilization(path, "r", 60, []UtilPoint{{Bucket: 0, Procs: 0.5}}, meta); err != nil {
		t.Fatal(err)
	}
	if len(k.free) == 0 {
		t.Error("writing a file left no kept encoder; want the writers to compress at writeLevel")
	}
}
