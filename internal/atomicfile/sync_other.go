//go:build !unix

package atomicfile

// syncFolder does nothing where a folder cannot be opened to sync it
// (Windows); see the package comment.
func syncFolder(string) error { return nil }
