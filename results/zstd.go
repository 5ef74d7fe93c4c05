package results

import (
	"io"
	"runtime"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// keptZstd is the zstd codec results files are written with: arrow-go's own,
// except that its encoders at our level are kept in a free list rather than a
// sync.Pool. The garbage collector empties a sync.Pool within two cycles, and
// a sweep collects every few milliseconds, so arrow-go's pool rebuilt its
// encoders (some 600 KB of tables and history each) over and over, and how
// many existed at a collection moved a sweep's peak memory. The free list
// keeps one encoder per processor for the life of the process. The bytes are
// the same: the encoders are made with arrow-go's options.
//
// This is package-level state, which STYLE.md otherwise rules out: arrow-go
// finds codecs in its own global table, so there is nowhere else to put it.
// It changes no byte of any file, and readers' decoding stays arrow-go's.
type keptZstd struct {
	compress.Codec // arrow-go's codec, which does everything else
	free           chan *zstd.Encoder
}

// writeLevel is the zstd level results files are written at: writerProps
// sets it, so that every page goes through the kept encoders.
const writeLevel = 1

func init() {
	orig, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		panic("results: arrow-go has no zstd codec: " + err.Error())
	}
	// Registered before any file is written: arrow-go's codec table is a
	// plain map, read without a lock.
	compress.RegisterCodec(compress.Codecs.Zstd, &keptZstd{Codec: orig, free: make(chan *zstd.Encoder, runtime.GOMAXPROCS(0))})
}

func (k *keptZstd) EncodeLevel(dst, src []byte, level int) []byte {
	if level != writeLevel {
		return k.Codec.EncodeLevel(dst, src, level)
	}
	var enc *zstd.Encoder
	select {
	case enc = <-k.free:
	default:
		// arrow-go's options (parquet/compress/zstd.go), so that the
		// output is byte for byte what its codec gives.
		enc, _ = zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
			zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true))
	}
	out := enc.EncodeAll(src, dst[:0])
	select {
	case k.free <- enc:
	default: // more encoders than processors were busy at once
	}
	return out
}

// DecodeWithError and the streaming methods are arrow-go's: readers ask
// for them by type assertion, which the embedded Codec interface does not
// pass through.
func (k *keptZstd) DecodeWithError(dst, src []byte) ([]byte, error) {
	return k.Codec.(compress.ErrorCodec).DecodeWithError(dst, src)
}

func (k *keptZstd) NewReader(r io.Reader) io.ReadCloser {
	return k.Codec.(compress.StreamingCodec).NewReader(r)
}

func (k *keptZstd) NewWriter(w io.Writer) io.WriteCloser {
	return k.Codec.(compress.StreamingCodec).NewWriter(w)
}

func (k *keptZstd) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return k.Codec.(compress.StreamingCodec).NewWriterLevel(w, level)
}

var (
	_ compress.ErrorCodec     = (*keptZstd)(nil)
	_ compress.StreamingCodec = (*keptZstd)(nil)
)
