//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotifyContext checks that each signal cancels the context with an
// interruption, errInterrupted, that names the signal.
func TestNotifyContext(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want string
	}{{syscall.SIGINT, "interrupted by SIGINT: finished"}, {syscall.SIGTERM, "interrupted by SIGTERM: finished"}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			ctx, stop := notifyContext()
			defer stop()
			if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the context was not cancelled")
			}
			err := fmt.Errorf("%w: finished runs are saved", interrupted(ctx))
			if !errors.Is(err, errInterrupted) {
				t.Errorf("%v is not errInterrupted", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q; want it to say %q", err, tc.want)
			}
		})
	}
}

// TestSignalHelper runs schedsweep in a child process for
// TestSignalExitCodes; it does nothing in a normal test run.
func TestSignalHelper(t *testing.T) {
	if os.Getenv("SCHEDSWEEP_SIGNAL_HELPER") != "1" {
		t.Skip("a helper of TestSignalExitCodes")
	}
	os.Exit(run(strings.Split(os.Getenv("SCHEDSWEEP_ARGS"), "\n"), os.Stdout, os.Stderr))
}

// TestSignalExitCodes stops a sweep in a child process with each signal and
// checks the exit code a script sees: 75 for both, which Slurm shows as
// 75:0, never as the 2 of bad usage (130 and 143 were the codes before),
// and the signal named in the message.
func TestSignalExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sweeps in child processes")
	}
	const exp = `experiment "slow" { seed = 1 }
cluster "main" { procs = 256 }
workload "w" {
  model = "lublin"
  jobs  = 20000
}
policy "conservative" {}
sweep {
  workloads = [workload.w]
  policies  = [policy.conservative]
  seeds     = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
}
`
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		want string
	}{
		{syscall.SIGINT, 75, "interrupted by SIGINT: finished runs are saved"},
		{syscall.SIGTERM, 75, "interrupted by SIGTERM: finished runs are saved"},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			file, out := filepath.Join(dir, "slow.hcl"), filepath.Join(dir, "out")
			if err := os.WriteFile(file, []byte(exp), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestSignalHelper$")
			cmd.Env = append(os.Environ(), "SCHEDSWEEP_SIGNAL_HELPER=1",
				"SCHEDSWEEP_ARGS="+strings.Join([]string{"run", "--quiet", "--jobs", "1", "--out", out, file}, "\n"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The manifest is written once the sweep has started, after
			// the signals are watched.
			deadline := time.Now().Add(60 * time.Second)
			for {
				if _, err := os.Stat(filepath.Join(out, ".schedsweep", "manifest.json")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the sweep did not start in 60s; stderr:\n%s", stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
				t.Fatalf("got %v; want exit %d; stderr:\n%s", err, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr:\n%s\nwant the interruption named", stderr.String())
			}
		})
	}
}
