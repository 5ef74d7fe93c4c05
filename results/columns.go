package results

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// This file hands Arrow record batches to parquet/file's column writers.
// It does what arrow-go's pqarrow.FileWriter did for the few types results
// files hold (int64, float64, boolean, string and dictionary-of-string
// columns, all top-level), making the same calls with the same arguments so
// that the files keep every byte (TestWrittenBytes). pqarrow itself is not
// used because it imports arrow/flight to serialise Arrow schemas, which
// brings gRPC and protobuf into the binary for a feature (the ARROW:schema
// metadata key) results files never had.

// parquetSchema returns the Parquet schema of sc as pqarrow.ToParquet
// derives it: a primitive node per field, optional when nullable, int64
// with the signed 64-bit integer annotation, strings as UTF-8 byte arrays,
// dictionaries as their value type, no field ids.
func parquetSchema(sc *arrow.Schema, props *parquet.WriterProperties) (*schema.GroupNode, error) {
	nodes := make(schema.FieldList, 0, sc.NumFields())
	for _, f := range sc.Fields() {
		dt := f.Type
		if d, ok := dt.(*arrow.DictionaryType); ok {
			dt = d.ValueType
		}
		var (
			phys parquet.Type
			lt   schema.LogicalType = schema.NoLogicalType{}
		)
		switch dt.ID() {
		case arrow.INT64:
			phys, lt = parquet.Types.Int64, schema.NewIntLogicalType(64, true)
		case arrow.FLOAT64:
			phys = parquet.Types.Double
		case arrow.BOOL:
			phys = parquet.Types.Boolean
		case arrow.STRING:
			phys, lt = parquet.Types.ByteArray, schema.StringLogicalType{}
		default:
			return nil, fmt.Errorf("column %q: results files have no %s columns", f.Name, f.Type)
		}
		rep := parquet.Repetitions.Required
		if f.Nullable {
			rep = parquet.Repetitions.Optional
		}
		n, err := schema.NewPrimitiveNodeLogical(f.Name, rep, lt, phys, -1, -1)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		nodes = append(nodes, n)
	}
	return schema.NewGroupNode(props.RootName(), props.RootRepetition(), nodes, -1)
}

// writeColumn writes a, the values of a top-level column whose field is
// nullable or not, to cw, as pqarrow's WriteArrowToColumn does.
func writeColumn(cw file.ColumnChunkWriter, a arrow.Array, nullable bool) error {
	// The definition levels: none for a required column, 1 for a value
	// and 0 for a NULL otherwise. Like pqarrow's path builder, a nullable
	// column without NULLs in this batch does not count as nullable below.
	var defLevels []int16
	leafNullable := false
	if nullable {
		defLevels = make([]int16, a.Len())
		switch nulls := a.NullN(); {
		case nulls == 0:
			for i := range defLevels {
				defLevels[i] = 1
			}
		case nulls == a.Len():
			leafNullable = true
		default:
			leafNullable = true
			for i := range defLevels {
				if a.IsValid(i) {
					defLevels[i] = 1
				}
			}
		}
	}
	info := cw.LevelInfo()
	single := info.DefLevel == info.RepeatedAncestorDefLevel+1 && leafNullable
	spaced := info.HasNullableValues() && !single
	if spaced && !cw.HasBitsBuffer() {
		buf := memory.NewResizableBuffer(cw.Properties().Allocator())
		buf.Resize(int(bitutil.BytesForBits(cw.Properties().WriteBatchSize())))
		cw.SetBitsBuffer(buf)
	}
	if a.DataType().ID() == arrow.DICTIONARY {
		return writeDictionary(cw, a.(*array.Dictionary), defLevels, spaced)
	}
	return writeDense(cw, a, defLevels, spaced)
}

// writeDense writes a column of plain values. spaced says whether they go
// through the writers' spaced (NULL-aware) path.
func writeDense(cw file.ColumnChunkWriter, a arrow.Array, defLevels []int16, spaced bool) error {
	noNulls := cw.Descr().SchemaNode().RepetitionType() == parquet.Repetitions.Required || a.NullN() == 0
	plain := !spaced && noNulls
	nulls, offset := a.NullBitmapBytes(), int64(a.Data().Offset())
	var err error
	switch w := cw.(type) {
	case *file.Int64ColumnChunkWriter:
		v := a.(*array.Int64).Int64Values()
		if plain {
			_, err = w.WriteBatch(v, defLevels, nil)
		} else {
			_, err = w.WriteBatchSpacedWithError(v, defLevels, nil, nulls, offset)
		}
	case *file.Float64ColumnChunkWriter:
		v := a.(*array.Float64).Float64Values()
		if plain {
			_, err = w.WriteBatch(v, defLevels, nil)
		} else {
			_, err = w.WriteBatchSpacedWithError(v, defLevels, nil, nulls, offset)
		}
	case *file.BooleanColumnChunkWriter:
		b := a.(*array.Boolean)
		switch {
		case b.Len() == 0:
			_, err = w.WriteBatch(nil, defLevels, nil)
		case plain:
			_, err = w.WriteBitmapBatch(b.Data().Buffers()[1].Bytes(), offset, b.Len(), defLevels, nil)
		default:
			v := make([]bool, b.Len())
			for i := range v {
				v[i] = b.Value(i)
			}
			_, err = w.WriteBatchSpacedWithError(v, defLevels, nil, nulls, offset)
		}
	case *file.ByteArrayColumnChunkWriter:
		s, ok := a.(*array.String)
		if !ok {
			return fmt.Errorf("column %s: %s values for a string column", cw.Descr().Name(), a.DataType())
		}
		data := []byte{}
		if buf := s.Data().Buffers()[2]; buf != nil {
			data = buf.Bytes()
		}
		offsets := s.ValueOffsets()
		switch {
		case w.SupportsArrowOffsets() && plain:
			_, err = w.WriteBatchArrow(data, offsets, defLevels, nil)
		case w.SupportsArrowOffsets():
			_, err = w.WriteBatchSpacedArrow(data, offsets, defLevels, nil, nulls, offset)
		default:
			v := make([]parquet.ByteArray, s.Len())
			for i := range v {
				v[i] = parquet.ByteArray(data[offsets[i]:offsets[i+1]])
			}
			if plain {
				_, err = w.WriteBatch(v, defLevels, nil)
			} else {
				_, err = w.WriteBatchSpacedWithError(v, defLevels, nil, nulls, offset)
			}
		}
	default:
		return fmt.Errorf("column %s: no writer for %s values", cw.Descr().Name(), a.DataType())
	}
	return err
}

// dictEncoder is the part of parquet/file's dictionary encoders a
// dictionary array is written through: the encoder takes the Arrow
// dictionary whole, then the indices.
type dictEncoder interface {
	NormalizeDict(arrow.Array) (arrow.Array, error)
	PutDictionary(arrow.Array) error
	NumEntries() int
}

// writeDictionary writes a dictionary-encoded column as its dictionary
// page and indices, as pqarrow does for a column chunk's first (here, only)
// batch: the page holds the whole Arrow dictionary in its order, and the
// statistics cover the entries the indices use. Without dictionary
// encoding for the column, or should the dictionary repeat a value, the
// values go out plain.
func writeDictionary(cw file.ColumnChunkWriter, d *array.Dictionary, defLevels []int16, spaced bool) error {
	enc, ok := cw.CurrentEncoder().(dictEncoder)
	if !ok || cw.CurrentEncoder().Encoding() != parquet.Encodings.PlainDict {
		return writeDictionaryDense(cw, d, defLevels, spaced)
	}
	dict, err := enc.NormalizeDict(d.Dictionary())
	if err != nil {
		return err
	}
	defer dict.Release()
	if err := enc.PutDictionary(dict); err != nil {
		return err
	}
	if enc.NumEntries() != dict.Len() {
		cw.FallbackToPlain()
		return writeDictionaryDense(cw, d, defLevels, spaced)
	}
	if stats := cw.PageStatistics(); stats != nil {
		ctx := compute.WithAllocator(context.Background(), cw.Properties().Allocator())
		used, err := compute.UniqueArray(ctx, d.Indices())
		if err != nil {
			return err
		}
		defer used.Release()
		values := dict
		if used.Len() != dict.Len() {
			values, err = compute.TakeArrayOpts(ctx, dict, used, compute.TakeOptions{BoundsCheck: true})
			if err != nil {
				return err
			}
			defer values.Release()
		}
		nonNull := d.Indices().Len() - d.Indices().NullN()
		stats.IncNulls(max(int64(len(defLevels)-nonNull), 0))
		stats.IncNumValues(int64(nonNull))
		if err := stats.UpdateFromArrow(values, false); err != nil {
			return err
		}
	}
	return cw.WriteDictIndices(d.Indices(), defLevels, nil)
}

// writeDictionaryDense writes a dictionary column's values plain.
func writeDictionaryDense(cw file.ColumnChunkWriter, d *array.Dictionary, defLevels []int16, spaced bool) error {
	ctx := compute.WithAllocator(context.Background(), cw.Properties().Allocator())
	dense, err := compute.CastArray(ctx, d, compute.SafeCastOptions(d.DataType().(*arrow.DictionaryType).ValueType))
	if err != nil {
		return err
	}
	defer dense.Release()
	return writeDense(cw, dense, defLevels, spaced)
}
