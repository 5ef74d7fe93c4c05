//go:build !race

package spec

// raceDetector: see race_on_test.go.
const raceDetector = false
