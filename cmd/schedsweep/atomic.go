package main

import (
	"io"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
)

// writeFileAtomic writes path through write: to a temporary file in the same
// directory, renamed into place only when everything succeeded, so a reader
// never sees a partial file. On failure the temporary file is removed.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFile(path, write)
}
