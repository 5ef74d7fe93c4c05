package workloads

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
)

// ArchiveTrace describes one published workload log: where to download it,
// the machine it was recorded on, and whom to thank and cite when using it.
// The values come from a fixed table (ArchiveTraces); each entry's comment
// in archiveTable says where every fact was checked, and Unverified lists
// the facts that could not be checked against the archive itself.
type ArchiveTrace struct {
	Name string // as users type it, e.g. "KTH-SP2"; matched without regard to case
	File string // the archive's file name; also the name in the cache
	URL  string // download address of File
	Page string // the archive's page about the log

	Procs         int64 // processors of the machine the log describes; 0 unknown
	Nodes         int64 // nodes of that machine; 0 unknown
	MemoryPerNode int64 // bytes per node; 0 unknown or not uniform

	Acknowledge string // whom the archive asks users to thank
	Cite        string // what the archive asks users to cite

	SHA256 string // hex sha256 of File exactly as served; "" when not known
	Size   int64  // bytes of File exactly as served; 0 when not known

	// The cluster description in Alea's .machines format, for data sets
	// that come with one; MachinesFile is "" otherwise.
	MachinesFile   string
	MachinesURL    string
	MachinesSHA256 string
	MachinesSize   int64

	Notes      string // caveats: format quirks, header problems, cleaning
	Unverified string // which of the facts above were not checked at the source; "" when all were
}

// ErrUnknownTrace is wrapped by the errors of LookupTrace and ResolveTrace
// for a name that is not in the registry.
var ErrUnknownTrace = errors.New("unknown trace")

// ErrNotCached is wrapped by the error of ResolveTrace for a registered
// trace that has not been downloaded into the cache.
var ErrNotCached = errors.New("trace not downloaded")

// FetchCommand is the command that downloads a registered trace, as the
// error messages of ResolveTrace spell it.
func FetchCommand(name string) string { return "schedsweep trace fetch " + name }

const (
	pwa = "https://www.cs.huji.ac.il/labs/parallel/workload/"

	// The Parallel Workloads Archive asks every user of its logs to cite this
	// paper besides thanking the log's provider (archive home page, checked
	// with the search tool; volume and pages from ../shared/workloads/README.md).
	citePWA = `D. G. Feitelson, D. Tsafrir and D. Krakov, "Experience with using the Parallel Workloads Archive", J. Parallel & Distributed Comput. 74(10):2967-2982, 2014`

	// Alea's data sets, pinned to the commit whose files match the shared
	// copies byte for byte (checked: .machines content and the .swf length
	// and last line, in a snapshot of the repository).
	aleaRaw = "https://raw.githubusercontent.com/aleasimulator/alea/952b600d57cf1cdb11b88ecfca897691ce860b47/Alea/data-set/"
)

// archiveTable is the registry. Sources, abbreviated below:
//
//	[page]   the log's PWA page, read through the search tool's "pages" corpus
//	[list]   a public download script (found by searching GitHub code)
//	         that fetches some forty logs from <PWA>/l_<log>/<file>; other
//	         projects use the same addresses (e.g. RoeeHaim/sched-rl-gym's
//	         tests for LANL-CM5). The PWA pages for LANL-CM5, KTH-SP2,
//	         SDSC-SP2, HPC2N and SDSC-BLUE were not in the corpus, so their
//	         addresses rest on these scripts
//	[book]   the data-source list of Feitelson's "Workload Modeling"
//	         (Cambridge), quoted on a cambridge.org listing page
//	[header] the SWF header of our copy in ../shared/workloads
//	[shared] ../shared/workloads/README.md (sums of our copies)
//	[3rd]    other public projects' code (machine sizes they simulate);
//	         corroboration only, not the archive's word
func archiveTable() []ArchiveTrace {
	return []ArchiveTrace{
		{
			// URL [list].
			// 1,024 nodes, provider Curt Canada [book]. Procs = nodes: one
			// SPARC processor per CM-5 node; 1,024 as in [3rd].
			Name: "LANL-CM5", File: "LANL-CM5-1994-4.1-cln.swf.gz",
			URL: pwa + "l_lanl_cm5/LANL-CM5-1994-4.1-cln.swf.gz", Page: pwa + "l_lanl_cm5/index.html",
			Procs: 1024, Nodes: 1024, MemoryPerNode: 32 << 20,
			Acknowledge: "Curt Canada, Los Alamos National Laboratory (LANL), who provided the CM-5 log",
			Cite:        citePWA,
			Notes: "1,024-node Thinking Machines CM-5 at LANL, Oct 1994 to Sep 1996; the raw log has 201,387 jobs, " +
				"this cleaned version (flurries removed) about 122,052 [3rd]. Jobs get partitions of at least 32 nodes.",
			Unverified: "memory per node (32 MiB, from memory), the 32-node minimum partition, the cleaned job count, " +
				"and the acknowledgement's wording: the PWA page was not readable here",
		},
		{
			// URL [list]. Sum and size [shared]: our copy is byte-identical to
			// fernandodeperto/swf's, which stores files downloaded from the
			// PWA. Machine and acknowledgement [header]: MaxNodes 100,
			// MaxProcs 100, Acknowledge: Lars Malinowsky; 100 nodes also [book].
			Name: "KTH-SP2", File: "KTH-SP2-1996-2.1-cln.swf.gz",
			URL: pwa + "l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz", Page: pwa + "l_kth_sp2/index.html",
			Procs: 100, Nodes: 100,
			Acknowledge: "Lars Malinowsky, Swedish Royal Institute of Technology (KTH), who provided the SP2 log",
			Cite:        citePWA,
			SHA256:      "c8c1a8db8b99cce4aa8d823a769280debca90485e30758ba35a76b17ac5485bb", Size: 404417,
			Notes: "100-node IBM SP2 at KTH, Sep 1996 to Aug 1997, scheduled with EASY; 27,992 job lines. " +
				"The header's MaxRecords (28476) exceeds the number of job lines.",
			Unverified: "the sum is of a copy of the PWA file, not read from the PWA itself",
		},
		{
			// URL [list]. Machine and acknowledgement [page] l_ctc_sp2: 512
			// nodes, 430 in the batch partition, "only 338 nodes are used for
			// the batch jobs in the log"; provided by Dan Dwyer, CTC, with a
			// request to send a notice of the work to cal@tc.cornell.edu.
			// 338 processors also [3rd].
			Name: "CTC-SP2", File: "CTC-SP2-1996-3.1-cln.swf.gz",
			URL: pwa + "l_ctc_sp2/CTC-SP2-1996-3.1-cln.swf.gz", Page: pwa + "l_ctc_sp2/index.html",
			Procs: 338, Nodes: 338,
			Acknowledge: "Dan Dwyer, Cornell Theory Center (CTC), who provided the SP2 log; " +
				"the CTC also asks for a notice of the work to cal@tc.cornell.edu",
			Cite: citePWA,
			Notes: "512-node IBM SP2 at the Cornell Theory Center, Jul 1996 to May 1997, EASY and LoadLeveler; " +
				"430 nodes formed the batch partition, and the jobs in the log use 338 of them. Nodes are not all alike.",
		},
		{
			// URL [list]. 128 nodes and processors [3rd] (several projects);
			// "Acknowledge: Victor Hazlewood" in a public SWF conversion
			// script for this SDSC log (GitHub code search), whose header
			// also carries SDSC's JOBLOG copyright notice.
			Name: "SDSC-SP2", File: "SDSC-SP2-1998-4.2-cln.swf.gz",
			URL: pwa + "l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz", Page: pwa + "l_sdsc_sp2/index.html",
			Procs: 128, Nodes: 128,
			Acknowledge: "Victor Hazlewood, San Diego Supercomputer Center (SDSC), who provided the SP2 log",
			Cite:        citePWA,
			Notes: "128-node IBM SP2 at SDSC, 1998 to 2000. The data is under SDSC's JOBLOG data usage agreement: " +
				"keep its copyright notice (in the file's header) and reference it in publications.",
			Unverified: "machine size, period and acknowledgement: the PWA page was not readable here",
		},
		{
			// URL [list]. 240 processors [3rd] (several projects; Batsim
			// experiments name the platform "seth").
			Name: "HPC2N", File: "HPC2N-2002-2.2-cln.swf.gz",
			URL: pwa + "l_hpc2n/HPC2N-2002-2.2-cln.swf.gz", Page: pwa + "l_hpc2n/index.html",
			Procs: 240, Nodes: 120,
			Acknowledge: "High Performance Computing Center North (HPC2N), Umeå, Sweden; " +
				"thank the people named in the file's Acknowledge header line",
			Cite:  citePWA,
			Notes: "The Seth Linux cluster at HPC2N, 2002 to 2006.",
			Unverified: "nodes (120 dual-processor nodes, from memory), the period, and the people to thank: " +
				"the PWA page was not readable here",
		},
		{
			// URL [list]. 1,152 processors [3rd].
			Name: "SDSC-BLUE", File: "SDSC-BLUE-2000-4.2-cln.swf.gz",
			URL: pwa + "l_sdsc_blue/SDSC-BLUE-2000-4.2-cln.swf.gz", Page: pwa + "l_sdsc_blue/index.html",
			Procs: 1152, Nodes: 144,
			Acknowledge: "Travis Earheart and Nancy Wilkins-Diehr, San Diego Supercomputer Center (SDSC), who provided the Blue Horizon log",
			Cite:        citePWA,
			Notes:       "IBM SP Blue Horizon at SDSC, 144 nodes of 8 processors, 2000 to 2003.",
			Unverified: "nodes, the period and the acknowledgement (from memory): " +
				"the PWA page was not readable here",
		},
		{
			// URL [list]. Machine [page] l_metacentrum: 14 clusters, 806
			// processors; the page's cluster table lists 232 nodes in all.
			// Acknowledgement [page]: Czech National Grid Infrastructure
			// MetaCentrum, made available through Dalibor Klusáček's web page.
			Name: "METACENTRUM-2009-2", File: "METACENTRUM-2009-2.swf.gz",
			URL: pwa + "l_metacentrum/METACENTRUM-2009-2.swf.gz", Page: pwa + "l_metacentrum/index.html",
			Procs: 806, Nodes: 232,
			Acknowledge: "the Czech National Grid Infrastructure MetaCentrum, who provided the log, " +
				"made available by Dalibor Klusáček",
			Cite: citePWA + `; and the paper that introduced the log, D. Klusáček and H. Rudová, ` +
				`"The importance of complete data sets for job scheduling simulations", JSSPP 2010`,
			Notes: "Czech national grid MetaCentrum, Jan to Jun 2009: 14 clusters of different processors, " +
				"11 PBSpro queues; some jobs span clusters. Failure and maintenance data are published with it. " +
				"The header is stripped in some copies (e.g. fernandodeperto/swf), which then lack MaxProcs: give --procs 806. " +
				"Used memory (field 7) is KB per job, not per processor (--memory-field used --memory-unit kb-per-job).",
			Unverified: "the introducing paper (from memory); no sum is registered: our copy is not the archive's file",
		},
		{
			// URL [list]. Everything else [page] l_metacentrum2: the file is
			// the "re-converted log", 58 MB gz, Jan 2013 to Apr 2015, 5,731,100
			// jobs; Klusáček's configuration data gives 19 clusters, 495 nodes,
			// 8,412 cores; acknowledgement and paper to cite as below.
			Name: "METACENTRUM-2013-3", File: "METACENTRUM-2013-3.swf.gz",
			URL: pwa + "l_metacentrum2/METACENTRUM-2013-3.swf.gz", Page: pwa + "l_metacentrum2/index.html",
			Procs: 8412, Nodes: 495,
			Acknowledge: "the Czech National Grid Infrastructure MetaCentrum, who provided the log, " +
				"made available by Dalibor Klusáček",
			Cite: citePWA + `; and D. Klusáček, Š. Tóth and G. Podolníková, ` +
				`"Real-life experience with major reconfiguration of job scheduling system", JSSPP 2015`,
			Notes: "The whole MetaCentrum grid, Jan 2013 to Apr 2015, 5,731,100 jobs, about 58 MB compressed; " +
				"clusters changed during the period and some jobs ran on clusters outside the 19 listed. " +
				"This is not the zewura cluster alone: for zewura use wagap-2013.",
		},
		{
			// Alea's data set, raw GitHub files (uncompressed), pinned to a
			// commit. Sums and sizes [shared], and checked against that
			// commit's files. Machine from the .machines file: zewura 20 × 80
			// CPUs, zegox 48 × 12 CPUs. Acknowledgement as the JSSPP workload
			// archive words it for Klusáček's CERIT-SC data sets (pages corpus).
			Name: "wagap-2013", File: "wagap-2013.swf",
			URL: aleaRaw + "wagap-2013.swf", Page: "https://github.com/aleasimulator/alea",
			Procs: 2176, Nodes: 68,
			Acknowledge: "CERIT-SC and the Czech National Grid Infrastructure MetaCentrum, who provided the data; " +
				"Dalibor Klusáček, who prepared it for Alea",
			Cite:   `D. Klusáček, Š. Tóth and G. Podolníková, "Complex job scheduling simulations with Alea 4", SIMUTools 2016`,
			SHA256: "bf5c1cc69915f2d5d26c579f69e206513ceff9bd60e6c4b112182da0c6183ed7", Size: 2418846,
			MachinesFile: "wagap-2013.swf.machines", MachinesURL: aleaRaw + "wagap-2013.swf.machines",
			MachinesSHA256: "ffa1b0338b9e826a04993dc00acff1003743c56ea171a64d0e5febc7687b3674", MachinesSize: 52,
			Notes: "CERIT-SC clusters zewura (20 nodes × 80 CPUs, 505 GiB each) and zegox (48 × 12 CPUs, 90 GiB each), " +
				"Jan to Mar 2013, 17,900 jobs, in Alea's format: no header, 21 tokens a line, requested memory in bytes " +
				"per job (--memory-unit bytes-per-job); two jobs have negative run times (--negative-as-missing).",
			Unverified: "the citation (from memory)",
		},
	}
}

// ArchiveTraces returns the registered traces, in a fixed order. The slice
// is new on every call; changing it changes nothing else.
func ArchiveTraces() []ArchiveTrace { return archiveTable() }

// LookupTrace returns the registered trace called name, ignoring case. An
// unknown name gives an error wrapping ErrUnknownTrace that lists the known
// names and suggests the closest one.
func LookupTrace(name string) (ArchiveTrace, error) {
	traces := archiveTable()
	for _, t := range traces {
		if strings.EqualFold(t.Name, name) {
			return t, nil
		}
	}
	return ArchiveTrace{}, fmt.Errorf("%w %q%s", ErrUnknownTrace, name, knownTraces(name, traces))
}

// knownTraces is the tail of an unknown-name message: a suggestion, if one
// is close, and the known names.
func knownTraces(name string, traces []ArchiveTrace) string {
	names := make([]string, len(traces))
	for i, t := range traces {
		names[i] = t.Name
	}
	var b strings.Builder
	if s := suggest.Closest(name, names); s != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", s)
	}
	b.WriteString("; known traces: ")
	b.WriteString(strings.Join(names, ", "))
	return b.String()
}

// CachedPath returns where t's file is, or would be, in the cache directory
// dir, and whether it is there: a regular file of t.Size bytes when the size
// is known, and, for a trace with a machines file, that file too. Fetch
// renames files into the cache only after verifying them, so a file there
// is a verified one; CachedPath checks sizes only, not contents.
//
// A trace registered compressed (NAME.swf.gz) may also be in dir
// uncompressed (NAME.swf), and one registered uncompressed compressed, as
// a user who obtained it elsewhere may keep it; the reader tells the two
// apart by their bytes. That other form, of any size, is used when the
// registered one is missing.
func CachedPath(dir string, t ArchiveTrace) (string, bool) {
	path := filepath.Join(dir, t.File)
	ok := cachedFile(path, t.Size)
	if other := otherForm(t.File); !ok && other != "" && cachedFile(filepath.Join(dir, other), 0) {
		path, ok = filepath.Join(dir, other), true
	}
	if ok && t.MachinesFile != "" {
		ok = cachedFile(filepath.Join(dir, t.MachinesFile), t.MachinesSize)
	}
	return path, ok
}

// otherForm is the name of a trace file compressed if name is not, or not
// if it is: NAME.swf and NAME.swf.gz; "" for a name of neither form.
func otherForm(name string) string {
	switch {
	case strings.HasSuffix(name, ".swf.gz"):
		return strings.TrimSuffix(name, ".gz")
	case strings.HasSuffix(name, ".swf"):
		return name + ".gz"
	}
	return ""
}

func cachedFile(path string, size int64) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && (size <= 0 || fi.Size() == size)
}

// ErrTraceIsDir is wrapped by the error of IdentifyTrace and ResolveTrace
// for a trace path that is a directory.
var ErrTraceIsDir = errors.New("a directory, not a trace file")

// IdentifyTrace says which trace a user means, without looking in a cache:
// the file at path, returned as it is with a nil trace, if it exists (files
// are never recognized by name); otherwise the registered trace called
// name, in any case, with an empty path. path is what the user wrote, or
// that resolved against the folder it is relative to (an experiment
// file's); name is what the user wrote. A directory at path gives an error
// wrapping ErrTraceIsDir, a path that cannot be examined an error saying
// why, and a name that is neither an error wrapping ErrUnknownTrace that
// names the input and both readings of it. ResolveTrace and the experiment
// decoder (runner/spec) both identify traces with it.
func IdentifyTrace(path, name string) (string, *ArchiveTrace, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return "", nil, fmt.Errorf("trace %q is %w", path, ErrTraceIsDir)
	case err == nil:
		return path, nil, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", nil, fmt.Errorf("trace %q: %w", path, err)
	}
	traces := archiveTable()
	for i := range traces {
		if strings.EqualFold(traces[i].Name, name) {
			return "", &traces[i], nil
		}
	}
	return "", nil, fmt.Errorf("trace %q is neither an existing file nor a registered trace name: %w%s",
		name, ErrUnknownTrace, knownTraces(name, traces))
}

// ResolveTrace turns what a user wrote for a trace into a file path: the
// path, if it exists, with a nil trace; else, for a registered trace name
// (IdentifyTrace), the file that holds it in the cache directory dir, and
// the trace (its machines file, if any, sits beside it as t.MachinesFile).
// A registered trace that is not cached gives an error wrapping
// ErrNotCached whose message holds the command that downloads it: runs
// never download anything themselves. Errors are IdentifyTrace's
// otherwise. The commands that read traces (simulate, trace info) and the
// runner all resolve traces with it.
func ResolveTrace(dir, nameOrPath string) (string, *ArchiveTrace, error) {
	path, t, err := IdentifyTrace(nameOrPath, nameOrPath)
	if err != nil || t == nil {
		return path, nil, err
	}
	path, ok := CachedPath(dir, *t)
	if !ok {
		return "", nil, fmt.Errorf("%w: %s is a registered trace but is not in the cache %s; download it first with:\n  %s",
			ErrNotCached, t.Name, dir, FetchCommand(t.Name))
	}
	return path, t, nil
}
