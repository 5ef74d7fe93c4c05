package workloads

import (
	"bytes"
	"fmt"
	"math"
)

// tres is what a ReqTRES or AllocTRES value gives: "billing=4,cpu=4,
// gres/gpu=2,gres/gpu:a100=2,mem=16000M,node=1" (src/sacct/print.c,
// PRINT_TRESA/PRINT_TRESR, printing slurmdb's simple TRES string with
// units). Each count is −1 when the value does not name it.
type tres struct {
	cpu, node, mem, gpu, gpuTyped int64
}

// gpus returns the GPUs: gres/gpu=, else the sum of gres/gpu:TYPE=, else −1.
func (t tres) gpus() int64 {
	if t.gpu >= 0 {
		return t.gpu
	}
	return t.gpuTyped
}

// parseTRES reads a TRES value. mem is in bytes: its number is MiB unless a
// suffix K, M, G, T or P (powers of 1024) says otherwise. Other TRES
// (billing, energy, licenses, fs/disk, ...) are ignored.
func parseTRES(b []byte) (tres, error) {
	t := tres{-1, -1, -1, -1, -1}
	for len(b) > 0 {
		item := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			item, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		k, v, ok := bytes.Cut(item, []byte("="))
		if !ok {
			return t, fmt.Errorf("%q is not NAME=COUNT", clipValue(string(item)))
		}
		var dst *int64
		var err error
		var n int64
		switch {
		case string(k) == "cpu":
			dst = &t.cpu
		case string(k) == "node":
			dst = &t.node
		case string(k) == "gres/gpu":
			dst = &t.gpu
		case string(k) == "mem":
			if n, err = parseMem(v, 'M'); err != nil {
				return t, fmt.Errorf("%s: %w", item, err)
			}
			t.mem = n
			continue
		case bytes.HasPrefix(k, []byte("gres/gpu:")):
			if n, err = parseUint(v); err != nil {
				return t, fmt.Errorf("%s: %w", item, err)
			}
			if t.gpuTyped < 0 {
				t.gpuTyped = 0
			}
			t.gpuTyped += min(n, MaxProcs+1)
			continue
		default:
			continue
		}
		if *dst, err = parseUint(v); err != nil {
			return t, fmt.Errorf("%s: %w", item, err)
		}
	}
	return t, nil
}

// maxSacctMem is the most memory, in bytes, a sacct job may have: 4 EiB,
// so that spreading it over nodes and rounding up to whole KB per
// processor, as SWF's field 10 does, stays within int64.
const maxSacctMem = 1 << 62

// memUnits are the multipliers of Slurm's unit suffixes (convert_num_unit).
var memUnits = map[byte]int64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40, 'P': 1 << 50}

// parseMem reads a memory size "16000M", "1.5G" or "4000" (in unit def)
// as bytes, rounded up to a whole byte.
func parseMem(b []byte, def byte) (int64, error) {
	unit := def
	num := b
	if n := len(b); n > 0 && (b[n-1] < '0' || b[n-1] > '9') {
		unit, num = b[n-1], b[:n-1]
	}
	mult, ok := memUnits[unit]
	if !ok || len(num) == 0 {
		return 0, fmt.Errorf("%q is not a size such as 4000M or 16G", clipValue(string(b)))
	}
	if whole, err := parseUint(num); err == nil {
		if whole > maxSacctMem/mult {
			return 0, fmt.Errorf("%q is %w of 4 EiB", b, ErrOverBound)
		}
		return whole * mult, nil
	}
	if !isDecimal(num, true) || bytes.ContainsAny(num, "eE-") {
		return 0, fmt.Errorf("%q is not a size such as 4000M or 16G", clipValue(string(b)))
	}
	v, err := parseFloat(num)
	if err != nil {
		return 0, err
	}
	f := math.Ceil(v * float64(mult))
	if f > maxSacctMem {
		return 0, fmt.Errorf("%q is %w of 4 EiB", b, ErrOverBound)
	}
	return int64(f), nil
}

// resources sets j's CPUs, nodes, memory and GPUs: each from AllocTRES
// (what the job held), else the column of the allocation (NCPUS, NNodes),
// else ReqTRES, else the column of the request (ReqCPUS, ReqNodes, ReqMem).
func (r *SacctReader) resources(f [][]byte, j *sacctJob) error {
	c := &r.cols
	alloc, req := tres{-1, -1, -1, -1, -1}, tres{-1, -1, -1, -1, -1}
	for _, x := range [...]struct {
		col int
		dst *tres
	}{{c.allocTRES, &alloc}, {c.reqTRES, &req}} {
		if x.col < 0 {
			continue
		}
		t, err := parseTRES(f[x.col])
		if err != nil {
			return r.fail(x.col, err)
		}
		*x.dst = t
	}
	count := func(v int64, col int) (int64, error) {
		if v >= 0 || col < 0 {
			return v, nil
		}
		n, err := parseUint(f[col])
		if err != nil {
			return 0, r.fail(col, err)
		}
		return n, nil
	}
	var err error
	// CPUs: allocated, else requested.
	if j.procs, err = count(alloc.cpu, c.ncpus); err != nil {
		return err
	}
	if j.reqProcs, err = count(req.cpu, c.reqCPUs); err != nil {
		return err
	}
	if j.procs < 0 {
		j.procs = j.reqProcs
	}
	if j.nodes, err = count(alloc.node, c.nnodes); err != nil {
		return err
	}
	if j.nodes < 0 {
		if j.nodes, err = count(req.node, c.reqNodes); err != nil {
			return err
		}
	}
	for _, x := range [...]struct {
		v, col int64
	}{{j.procs, int64(c.ncpus)}, {j.nodes, int64(c.nnodes)}} {
		if x.v > MaxProcs {
			return r.fail(int(max(x.col, 0)), fmt.Errorf("%d is %w of %d", x.v, ErrOverBound, int64(MaxProcs)))
		}
	}
	j.nodes = max(j.nodes, 0)
	j.procs = max(j.procs, 0)
	switch {
	case alloc.mem >= 0:
		j.mem = alloc.mem
	case req.mem >= 0:
		j.mem = req.mem
	case c.reqMem >= 0 && len(f[c.reqMem]) > 0:
		if j.mem, err = reqMem(f[c.reqMem], j.procs, j.nodes); err != nil {
			return r.fail(c.reqMem, err)
		}
	}
	j.gpus = max(alloc.gpus(), 0)
	if alloc.gpus() < 0 {
		j.gpus = max(req.gpus(), 0)
	}
	if j.gpus > MaxProcs {
		col := c.allocTRES
		if alloc.gpus() < 0 {
			col = c.reqTRES
		}
		return r.fail(col, fmt.Errorf("%d GPUs is %w of %d", j.gpus, ErrOverBound, int64(MaxProcs)))
	}
	return nil
}

// reqMem reads a ReqMem value as the job's bytes: Slurm 22.05 prints the
// job's total ("16G", or MiB without a suffix); releases before 21.08
// appended 'c' for memory per CPU ("4000Mc") or 'n' per node ("16Gn").
func reqMem(b []byte, cpus, nodes int64) (int64, error) {
	per := int64(1)
	if n := len(b); n > 0 {
		switch b[n-1] {
		case 'c':
			per, b = cpus, b[:n-1]
		case 'n':
			per, b = max(nodes, 1), b[:n-1]
		}
	}
	m, err := parseMem(b, 'M')
	if err != nil {
		return 0, err
	}
	v, ok := mulNonNeg(m, per)
	if !ok || v > maxSacctMem {
		return 0, fmt.Errorf("%d bytes × %d is %w of 4 EiB", m, per, ErrOverBound)
	}
	return v, nil
}
