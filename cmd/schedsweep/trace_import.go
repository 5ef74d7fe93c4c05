package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/workloads"
)

const traceImportUsage = `Usage: schedsweep trace import sacct [flags] FILE

Converts the output of Slurm's sacct, run as

  sacct --allusers --duplicates --parsable2 \
    --format=JobIDRaw,JobID,User,Group,Account,Partition,QOS,Submit,Eligible,Start,End,ElapsedRaw,TimelimitRaw,State,ExitCode,NNodes,NCPUS,ReqCPUS,ReqNodes,ReqMem,ReqTRES,AllocTRES,NodeList \
    --starttime 2024-01-01 --endtime 2024-02-01 > dump.txt

(plain or gzip-compressed), to SWF: one job per line, with Alea's fields 20
(partition name) and 21 (node request N:ppn=P[:mem=S][:gpus=G] per node),
the header naming the users, accounts, QOS and partitions behind the
numbers. Read back with --alea-fields --procs-field allocated (and
--memory-field requested), or alea_fields = true and procs_field =
"allocated" in a workload block, it gives the jobs that simulate --format
sacct and format = "sacct" read from the dump itself.
The header line gives the columns, in any order; columns not used are
ignored. Job steps, array tasks still pending, jobs still pending or
running, jobs cancelled before they started and earlier records of
requeued jobs are skipped and counted by reason; a line that cannot be
read is an error naming its line and column. docs/experiments.md says what
each column becomes.

sacct prints local times without a zone: --timezone names the zone of the
host that ran it (default: $TZ if set, else UTC). Run sacct with TZ=UTC to
avoid the repeated hour of the change from summer time.

Examples:
  schedsweep trace import sacct dump.txt
  schedsweep trace import sacct --anonymise --timezone Europe/Prague -o site.swf dump.txt

Flags:
`

// runTraceImport runs "schedsweep trace import sacct".
func runTraceImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trace import", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), traceImportUsage); fs.PrintDefaults() }
	var out string
	fs.StringVar(&out, "o", "", "write the SWF to `file` (default: FILE's name with .swf; - for stdout)")
	fs.StringVar(&out, "out", "", "the same as -o")
	anonymise := fs.Bool("anonymise", false, "leave user and account names out of the header (users and accounts stay numbered)")
	zone := fs.String("timezone", "", "time `zone` sacct printed its times in, e.g. Europe/Prague (default: $TZ, else UTC)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("want a format and a FILE: trace import sacct FILE")
	case pos[0] != "sacct":
		return usagef("unknown format %q: trace import reads sacct", pos[0])
	case len(pos) != 2:
		return usagef("want one FILE after sacct, got %d", len(pos)-1)
	}
	path := pos[1]
	loc, err := importZone(*zone, os.Getenv)
	if err != nil {
		return usageError{err}
	}
	if out == "" {
		out = strings.TrimSuffix(path, ".gz")
		out = strings.TrimSuffix(out, filepath.Ext(out)) + ".swf"
		if out == path {
			return usagef("give -o: the default output %s is the input", out)
		}
	}
	if err := checkOutputFile("o", out); out != "-" && err != nil {
		return err
	}
	f, err := workloads.OpenTrace(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := workloads.NewSacctReader(f, filepath.Base(path), workloads.SacctOptions{Location: loc})
	if err := r.Read(); err != nil {
		return err
	}
	write := func(w io.Writer) error {
		return workloads.WriteSacctSWF(w, r, workloads.SacctSWFOptions{Source: filepath.Base(path), Anonymise: *anonymise})
	}
	report, where := stdout, out
	if out == "-" {
		report, where = stderr, "stdout"
		err = write(stdout)
	} else {
		err = atomicfile.WriteFile(out, write)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", where, err)
	}
	return importReport(report, r, where)
}

// importZone returns the zone named by --timezone, else by TZ, else UTC.
func importZone(name string, getenv func(string) string) (*time.Location, error) {
	from := "--timezone"
	if name == "" {
		name, from = strings.TrimPrefix(getenv("TZ"), ":"), "TZ"
	}
	if name == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %q is not a time zone such as UTC or Europe/Prague", from, name)
	}
	return loc, nil
}

// importReport prints what the import kept and skipped.
func importReport(w io.Writer, r *workloads.SacctReader, where string) error {
	skipped, err := r.Skipped()
	if err != nil {
		return err
	}
	names, err := r.Names()
	if err != nil {
		return err
	}
	jobs, err := r.Jobs()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d jobs of %d users, %d accounts, %d QOS and %d partitions to %s\n",
		jobs, len(names.Users), len(names.Accounts), len(names.QOS), len(names.Partitions), where)
	if n := r.Heterogeneous(); n > 0 {
		fmt.Fprintf(w, "kept %d components of heterogeneous jobs as jobs of their own\n", n)
	}
	for _, c := range skipped {
		fmt.Fprintf(w, "skipped %s: %s (first: line %d)\n", plural(c.Lines, "line"), c.Reason, c.First)
	}
	return nil
}

// plural returns "1 line", "2 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
