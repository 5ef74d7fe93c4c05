package workloads

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by OpenTrace's error for a path that is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenTrace opens the workload file at path for reading, refusing anything
// but a regular file (or a link to one): a named pipe or a device has no
// end the reader can rely on (a pipe without a writer would block forever,
// /dev/zero never ends), and a directory has no lines. The file is opened
// without blocking (O_NONBLOCK) and its mode checked before any read, so a
// pipe is refused at once. The error names path and what it is; the caller
// closes the file.
func OpenTrace(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := fi.Mode(); !m.IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w but %s; save the workload to a file first", path, ErrNotRegular, modeName(m))
	}
	return f, nil
}

// modeName says what kind of file mode m describes, with an article.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file (" + m.String() + ")"
}
