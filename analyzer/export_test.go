package analyzer

import "io"

// Tests run with the analyzer's recover turned off, so that a panic on
// unusual code fails a test instead of turning into silence.
func init() { rethrowPanics = true }

// PanicOn makes the analyzer panic on the package of the given path, as a
// bug would, and recover from it as it does for users, printing to log; the
// function it returns undoes it.
func PanicOn(path string, log io.Writer) (undo func()) {
	rethrowPanics, panicOn, panicLog = false, path, log
	return func() { rethrowPanics, panicOn, panicLog = true, "", nil }
}
