package results

import (
	"fmt"
	"maps"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
)

// Metadata is what every results file records about where it came from, as
// Parquet key-value metadata (the footer's key_value_metadata, which
// pyarrow, Polars, R arrow, DuckDB's parquet_kv_metadata and hyparquet all
// expose). It holds no timestamp unless the caller puts one in Extra, so the
// same inputs give byte-identical files.
type Metadata struct {
	ToolVersion    string // key schedsweep.tool_version
	ExperimentFile string // key schedsweep.experiment_file; the runner gives the file's base name
	ExperimentHash string // key schedsweep.experiment_hash
	// Extra holds further pairs, written after the three above in key order.
	// A key may not repeat one of the three.
	Extra map[string]string
}

// Metadata keys.
const (
	MetaToolVersion    = "schedsweep.tool_version"
	MetaExperimentFile = "schedsweep.experiment_file"
	MetaExperimentHash = "schedsweep.experiment_hash"
)

// arrow returns m as Arrow schema metadata, which createParquet writes as
// the file's key-value metadata in this order.
func (m Metadata) arrow() (arrow.Metadata, error) {
	keys := []string{MetaToolVersion, MetaExperimentFile, MetaExperimentHash}
	vals := []string{m.ToolVersion, m.ExperimentFile, m.ExperimentHash}
	for _, k := range slices.Sorted(maps.Keys(m.Extra)) {
		if slices.Contains(keys[:3], k) {
			return arrow.Metadata{}, fmt.Errorf("extra metadata key %q is reserved", k)
		}
		keys, vals = append(keys, k), append(vals, m.Extra[k])
	}
	return arrow.NewMetadata(keys, vals), nil
}

// batchRows is how many rows the writers put in one Arrow record batch and
// so in one Parquet row group: large enough to compress well and for
// readers to split work by row group, small enough that a writer holds only
// a few megabytes however long the run.
const batchRows = 64 * 1024

// writerProps returns the Parquet properties every results file uses:
//
//   - a required root: arrow-go's default repeated root is valid Parquet
//     but some readers reject it;
//   - zstd at level 1 (its fastest) on every column: on a 100k-job run
//     the jobs file takes 7% less time than at the default level 3 and is
//     1% larger;
//   - dictionary encoding on the string columns only;
//   - DELTA_BINARY_PACKED on the int64 columns: times and ids change
//     little from row to row, so deltas pack into a few bits; on the same
//     run that takes 40% less time than plain encoding, whose larger pages
//     zstd must then squeeze, and gives a 13% smaller file;
//   - min/max statistics on every column except noStats.
func writerProps(sc *arrow.Schema, noStats []string) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithRootRepetition(parquet.Repetitions.Required),
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithCompressionLevel(writeLevel),
		parquet.WithDictionaryDefault(false),
	}
	for _, f := range sc.Fields() {
		switch f.Type.ID() {
		case arrow.STRING, arrow.DICTIONARY:
			opts = append(opts, parquet.WithDictionaryFor(f.Name, true))
		case arrow.INT64:
			opts = append(opts, parquet.WithEncodingFor(f.Name, parquet.Encodings.DeltaBinaryPacked))
		}
	}
	for _, name := range noStats {
		opts = append(opts, parquet.WithStatsFor(name, false))
	}
	return parquet.NewWriterProperties(opts...)
}

// parquetFile is a Parquet file being written: parquet/file's writer on an
// atomicFile, fed Arrow record batches (columns.go).
type parquetFile struct {
	w      *file.Writer
	fields []arrow.Field
	af     *atomicfile.File
}

// createParquet starts a Parquet file with schema sc at path; sc's metadata
// becomes the file's key-value metadata, in its order. Columns named in
// noStats get no statistics. Errors name path.
func createParquet(path string, sc *arrow.Schema, noStats []string) (*parquetFile, error) {
	props := writerProps(sc, noStats)
	root, err := parquetSchema(sc, props)
	if err != nil {
		return nil, errorFor(path, err)
	}
	md := sc.Metadata()
	kv := make(metadata.KeyValueMetadata, 0, md.Len())
	for i, k := range md.Keys() {
		kv.Append(k, md.Values()[i])
	}
	af, err := atomicfile.Create(path)
	if err != nil {
		return nil, errorFor(path, err)
	}
	w, err := file.NewParquetWriterWithError(af, root, file.WithWriterProps(props), file.WithWriteMetadata(kv))
	if err != nil {
		af.Abort()
		return nil, errorFor(path, err)
	}
	return &parquetFile{w, sc.Fields(), af}, nil
}

// Write writes rec, whose schema must be the file's, as one row group.
func (p *parquetFile) Write(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(p.fields) {
		return fmt.Errorf("a record batch of %d columns for a file of %d", rec.NumCols(), len(p.fields))
	}
	rg, err := p.w.AppendRowGroupChecked()
	if err != nil {
		return err
	}
	for i, f := range p.fields {
		cw, err := rg.NextColumn()
		if err != nil {
			return err
		}
		if a := rec.Column(i); a.Len() > 0 {
			if err := writeColumn(cw, a, f.Nullable); err != nil {
				return fmt.Errorf("column %s: %w", f.Name, err)
			}
		}
	}
	return rg.Close()
}

// commit writes the footer and moves the file into place.
func (p *parquetFile) commit() error {
	if err := p.w.Close(); err != nil {
		p.af.Abort()
		return errorFor(p.af.Path(), err)
	}
	if err := p.af.Commit(); err != nil {
		return errorFor(p.af.Path(), err)
	}
	return nil
}

// abort gives the file up, removing it.
func (p *parquetFile) abort() {
	p.af.Abort()
}

// writeParquet writes a Parquet file with schema sc to path, calling fill
// to write its record batches. Columns named in noStats get no statistics.
// On failure nothing is left at path; errors name it.
func writeParquet(path string, sc *arrow.Schema, noStats []string, fill func(*parquetFile) error) error {
	p, err := createParquet(path, sc, noStats)
	if err != nil {
		return err
	}
	if err := fill(p); err != nil {
		p.abort()
		return errorFor(path, err)
	}
	return p.commit()
}

// errorFor wraps err with the path being written.
func errorFor(path string, err error) error {
	return fmt.Errorf("writing %s: %w", path, err)
}

// tableBatchRows is batchRows for the runs and users tables, which a sweep
// streams at its end while it reads its journal back. Their rows go into
// Arrow builders cell by cell and take some 100 bytes each there, so a
// 64k-row batch held megabytes more at the end of a long sweep than of a
// short one; 16k rows still make row groups that readers split work by.
const tableBatchRows = 16 * 1024
