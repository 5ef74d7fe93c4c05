//go:build race

package spec

// raceDetector is whether the tests run under the race detector, which
// makes parsing several times slower: the time bounds of TestBounds are
// for ordinary builds, as users run them.
const raceDetector = true
