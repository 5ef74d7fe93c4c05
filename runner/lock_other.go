//go:build !unix

package runner

import "os"

// lockFile does nothing where flock(2) does not exist: processes sharing a
// results folder there are not kept apart.
func lockFile(*os.File, bool) error { return nil }
