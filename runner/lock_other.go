//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package runner

import "os"

// lockFile does nothing where flock(2) does not exist (Windows, Solaris): processes sharing a
// results folder there are not kept apart.
func lockFile(*os.File, bool) error { return nil }
