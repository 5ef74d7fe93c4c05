package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// table is a Parquet file read whole into columns: text columns as
// strings (NULL as ""), numeric and boolean columns as float64 (NULL as
// NaN, booleans as 0 and 1). Figures need nothing more exact: int64 values
// beyond 2^53, such as seeds, lose their last bits.
type table struct {
	path  string
	names []string // every column, in file order
	strs  map[string][]string
	nums  map[string][]float64
	bools map[string]bool   // the numeric columns that are boolean
	meta  map[string]string // the file's key-value metadata
}

// readTable reads the Parquet file at path. Its top-level columns of
// UTF-8 text, booleans, integers and floating-point numbers are read; other
// columns (nested ones, binary, dates, times, decimals) are listed in
// names only. It reads with parquet/file's column readers rather than
// pqarrow, which would bring arrow/flight (and so gRPC) into the binary.
func readTable(path string) (*table, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer rdr.Close()
	t := &table{path: path, strs: map[string][]string{}, nums: map[string][]float64{}, bools: map[string]bool{}, meta: map[string]string{}}
	kv := rdr.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		t.meta[k] = kv.Values()[i]
	}
	sc := rdr.MetaData().Schema
	root := sc.Root()
	for i := range root.NumFields() {
		f := root.Field(i)
		t.names = append(t.names, f.Name())
		n, ok := f.(*schema.PrimitiveNode)
		if !ok || n.RepetitionType() == parquet.Repetitions.Repeated {
			continue
		}
		if err := t.readColumn(rdr, n, sc.ColumnIndexByNode(n)); err != nil {
			return nil, fmt.Errorf("reading %s: column %s: %w", path, n.Name(), err)
		}
	}
	return t, nil
}

// readColumn reads the top-level column n, leaf col of the file, into t if
// it holds text, numbers or booleans.
func (t *table) readColumn(rdr *file.Reader, n *schema.PrimitiveNode, col int) error {
	lt := n.LogicalType()
	_, isInt := lt.(schema.IntLogicalType)
	plain := lt == nil || lt.Equals(schema.NoLogicalType{})
	// The file's row count sizes the column at once: growing it by
	// appends copied it over and over, most of a big table's read.
	rows := rdr.NumRows()
	var strs []string
	var nums []float64
	if n.PhysicalType() == parquet.Types.ByteArray {
		strs = make([]string, 0, rows)
	} else {
		nums = make([]float64, 0, rows)
	}
	addNum := func(v float64, ok bool) {
		if !ok {
			v = math.NaN()
		}
		nums = append(nums, v)
	}
	for g := range rdr.NumRowGroups() {
		cr, err := rdr.RowGroup(g).Column(col)
		if err != nil {
			return err
		}
		switch r := cr.(type) {
		case *file.ByteArrayColumnChunkReader:
			if lt == nil || !lt.Equals(schema.StringLogicalType{}) {
				return nil // binary: no figure reads it
			}
			err = readLeaf(r, func(v parquet.ByteArray, _ bool) {
				strs = append(strs, string(v)) // "" when NULL
			})
		case *file.BooleanColumnChunkReader:
			err = readLeaf(r, func(v bool, ok bool) {
				if v {
					addNum(1, ok)
				} else {
					addNum(0, ok)
				}
			})
		case *file.Int64ColumnChunkReader:
			if !plain && !isInt {
				return nil // a timestamp, a time or a decimal
			}
			err = readLeaf(r, func(v int64, ok bool) { addNum(float64(v), ok) })
		case *file.Int32ColumnChunkReader:
			if !plain && !isInt {
				return nil // a date, a time or a decimal
			}
			err = readLeaf(r, func(v int32, ok bool) { addNum(float64(v), ok) })
		case *file.Float64ColumnChunkReader:
			err = readLeaf(r, func(v float64, ok bool) { addNum(v, ok) })
		case *file.Float32ColumnChunkReader:
			err = readLeaf(r, func(v float32, ok bool) { addNum(float64(v), ok) })
		default:
			return nil // a type no figure reads
		}
		if err != nil {
			return err
		}
	}
	if n.PhysicalType() == parquet.Types.ByteArray {
		t.strs[n.Name()] = strs
		return nil
	}
	t.nums[n.Name()] = nums
	t.bools[n.Name()] = n.PhysicalType() == parquet.Types.Boolean
	return nil
}

// leafReader is one of parquet/file's typed column chunk readers.
type leafReader[T any] interface {
	HasNext() bool
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (int64, int, error)
	Descriptor() *schema.Column
}

// readLeaf calls emit with each row of a top-level column's chunk, in
// order: the value and true, or the zero value and false for a NULL.
func readLeaf[T any](r leafReader[T], emit func(v T, ok bool)) error {
	const batch = 4096
	vals, defs := make([]T, batch), make([]int16, batch)
	maxDef := r.Descriptor().MaxDefinitionLevel()
	var zero T
	for r.HasNext() {
		levels, n, err := r.ReadBatch(batch, vals, defs, nil)
		if err != nil {
			return err
		}
		if maxDef == 0 {
			for _, v := range vals[:n] {
				emit(v, true)
			}
			continue
		}
		k := 0
		for _, d := range defs[:levels] {
			if d == maxDef {
				emit(vals[k], true)
				k++
			} else {
				emit(zero, false)
			}
		}
	}
	return nil
}

// str returns the text column name.
func (t *table) str(name string) ([]string, error) {
	if c, ok := t.strs[name]; ok {
		return c, nil
	}
	return nil, t.missing(name, "text")
}

// num returns the numeric column name.
func (t *table) num(name string) ([]float64, error) {
	if c, ok := t.nums[name]; ok {
		return c, nil
	}
	return nil, t.missing(name, "numeric")
}

// text returns row's value of column name as text: NULL for a NULL or a
// missing column, booleans as true and false, numbers in their shortest
// form.
func (t *table) text(name string, row int) string {
	if c, ok := t.strs[name]; ok {
		if c[row] == "" {
			return "NULL"
		}
		return c[row]
	}
	c, ok := t.nums[name]
	switch {
	case !ok || math.IsNaN(c[row]):
		return "NULL"
	case t.bools[name]:
		return strconv.FormatBool(c[row] != 0)
	}
	return formatFloat(c[row])
}

// has reports whether t has a column name, of any type.
func (t *table) has(name string) bool {
	for _, n := range t.names {
		if n == name {
			return true
		}
	}
	return false
}

func (t *table) missing(name, kind string) error {
	if t.has(name) {
		return fmt.Errorf("%s: column %q is not %s", t.path, name, kind)
	}
	return fmt.Errorf("%w: %s has no column %q (its columns: %s)", ErrMissingColumn, t.path, name, strings.Join(t.names, ", "))
}
