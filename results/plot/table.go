package plot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
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

// readTable reads the Parquet file at path.
func readTable(path string) (*table, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer tbl.Release()
	t := &table{path: path, strs: map[string][]string{}, nums: map[string][]float64{}, bools: map[string]bool{}, meta: map[string]string{}}
	kv := rdr.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		t.meta[k] = kv.Values()[i]
	}
	for i, f := range tbl.Schema().Fields() {
		t.names = append(t.names, f.Name)
		var strs []string
		var nums []float64
		for _, chunk := range tbl.Column(i).Data().Chunks() {
			switch a := chunk.(type) {
			case *array.String:
				for j := range a.Len() {
					strs = append(strs, a.Value(j)) // "" when NULL
				}
			case *array.Dictionary:
				d, ok := a.Dictionary().(*array.String)
				if !ok {
					continue // not a text dictionary: no figure reads it
				}
				for j := range a.Len() {
					s := ""
					if a.IsValid(j) {
						s = d.Value(a.GetValueIndex(j))
					}
					strs = append(strs, s)
				}
			default:
				get := numeric(chunk)
				if get == nil {
					continue // a type no figure reads
				}
				for j := range chunk.Len() {
					v := math.NaN()
					if chunk.IsValid(j) {
						v = get(j)
					}
					nums = append(nums, v)
				}
			}
		}
		switch {
		case isText(f.Type):
			t.strs[f.Name] = strs
		case isNumeric(f.Type):
			t.nums[f.Name] = nums
			t.bools[f.Name] = f.Type.ID() == arrow.BOOL
		}
	}
	return t, nil
}

func isText(dt arrow.DataType) bool {
	switch dt := dt.(type) {
	case *arrow.StringType:
		return true
	case *arrow.DictionaryType:
		return dt.ValueType.ID() == arrow.STRING
	}
	return false
}

// isNumeric reports whether numeric reads arrays of type dt.
func isNumeric(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT64, arrow.INT32, arrow.INT16, arrow.INT8, arrow.UINT64, arrow.UINT32,
		arrow.FLOAT64, arrow.FLOAT32, arrow.BOOL:
		return true
	}
	return false
}

// numeric returns a reader of a's values as float64, or nil if a is not
// numeric or boolean.
func numeric(a arrow.Array) func(int) float64 {
	switch a := a.(type) {
	case *array.Int64:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Int32:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Int16:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Int8:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Uint64:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Uint32:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Float64:
		return func(i int) float64 { return a.Value(i) }
	case *array.Float32:
		return func(i int) float64 { return float64(a.Value(i)) }
	case *array.Boolean:
		return func(i int) float64 {
			if a.Value(i) {
				return 1
			}
			return 0
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
