//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// syncFolder makes dir's entries durable: a file renamed into it, a folder
// made in it. A file system that cannot sync a folder (EINVAL, ENOTSUP:
// some network and FUSE mounts) is not an error.
func syncFolder(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
