package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrBusy is wrapped by Execute's error for a results folder another
// schedsweep process is writing in a way this one may not join: two
// processes of the same shard, a shard beside a run of the whole sweep, or
// anything beside --force. Shards of one split run side by side.
var ErrBusy = errors.New("the output folder is in use by another schedsweep run")

// lockDir holds the advisory lock files, under stateDir; clearing a folder
// (--force) keeps it, so that a lock held on its files stays the lock.
const lockDir = "locks"

// folderLock is what a process writing a results folder holds while it
// runs: a shared lock on locks/folder for a shard, with an exclusive one on
// locks/shard-I-of-N; an exclusive lock on locks/folder for the whole sweep
// and for --force. The locks are the operating system's (flock on Unix):
// they go with the process, so a killed run leaves none behind, and on a
// file system that cannot lock (some NFS mounts without a lock manager) the
// run goes on without them.
type folderLock struct {
	files []*os.File
}

// lockFolder takes the locks of shard i of n (n ≤ 1: the whole sweep) in
// dir, whose state folder exists; exclusive asks for the whole folder as
// the whole sweep does.
func lockFolder(dir string, i, n int, exclusive bool) (*folderLock, error) {
	locks := filepath.Join(dir, stateDir, lockDir)
	if err := os.MkdirAll(locks, 0o777); err != nil {
		return nil, fmt.Errorf("cannot use the output folder %s: %w", dir, err)
	}
	l := &folderLock{}
	whole := exclusive || n <= 1
	if err := l.take(filepath.Join(locks, "folder"), whole); err != nil {
		l.release()
		if errors.Is(err, errLocked) {
			holder := "another schedsweep run is writing it (a shard, the whole sweep or --force)"
			if !whole {
				holder = "a run of the whole sweep, or one with --force, is writing it"
			}
			return nil, fmt.Errorf("%w: %s: %s; wait for it to end, or choose another folder with --out", ErrBusy, dir, holder)
		}
		return nil, fmt.Errorf("output folder %s: %w", dir, err)
	}
	if !whole {
		if err := l.take(filepath.Join(locks, fmt.Sprintf("shard-%d-of-%d", i, n)), true); err != nil {
			l.release()
			if errors.Is(err, errLocked) {
				return nil, fmt.Errorf("%w: %s: another process is running shard %d/%d; wait for it to end", ErrBusy, dir, i, n)
			}
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
	}
	return l, nil
}

// errLocked is take's error for a lock another process holds.
var errLocked = errors.New("locked")

// take opens path, creating it, and locks it, exclusively or shared,
// without waiting: errLocked if another open file holds a conflicting lock.
func (l *folderLock) take(path string, exclusive bool) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if err := lockFile(f, exclusive); err != nil {
		f.Close()
		return err
	}
	l.files = append(l.files, f)
	return nil
}

// release gives the locks up.
func (l *folderLock) release() {
	if l == nil {
		return
	}
	for _, f := range l.files {
		f.Close() // closing the file releases its lock
	}
	l.files = nil
}
