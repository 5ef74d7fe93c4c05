//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package runner

import (
	"errors"
	"os"
	"syscall"
)

// lockFile locks f with flock(2) without waiting. A file system that does
// not support locks gives no lock and no error.
func lockFile(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return nil
		}
		return err
	}
}
