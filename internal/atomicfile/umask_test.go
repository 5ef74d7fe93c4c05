//go:build unix

package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUmask checks that files get 0666 less the umask, as any new file
// does, whatever the umask: group-writable under 002, private under 077.
func TestUmask(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o022, 0o644}, {0o002, 0o664}, {0o077, 0o600}} {
		old := syscall.Umask(tc.umask)
		path := filepath.Join(dir, "out.txt")
		err := WriteFile(path, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
		tmp, terr := CreateTemp(dir, ".x-*.part")
		syscall.Umask(old)
		if err != nil || terr != nil {
			t.Fatal(err, terr)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != tc.want {
			t.Errorf("umask %03o: file mode %v; want %v", tc.umask, fi.Mode().Perm(), tc.want)
		}
		fi, _ := tmp.Stat()
		if fi.Mode().Perm() != tc.want || !strings.HasPrefix(fi.Name(), ".x-") || !strings.HasSuffix(fi.Name(), ".part") {
			t.Errorf("umask %03o: CreateTemp made %s, mode %v; want .x-*.part, mode %v", tc.umask, fi.Name(), fi.Mode().Perm(), tc.want)
		}
		tmp.Close()
		os.Remove(tmp.Name())
	}
}
