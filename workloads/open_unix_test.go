//go:build unix

package workloads

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenTraceFIFO checks that a named pipe with no writer is refused at
// once; os.Open alone would block forever.
func TestOpenTraceFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.swf")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := OpenTrace(path)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("got %v; want ErrNotRegular naming a named pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OpenTrace blocked on a named pipe without a writer")
	}
}
