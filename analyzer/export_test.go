package analyzer

import (
	"io"

	"github.com/crossslot/crossslot/analyzer/internal/budget"
)

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

// BoundWork sets the bounds of each package's reading (see budget); the
// function it returns restores the defaults.
func BoundWork(depth, steps int) (undo func()) {
	d, s := budget.MaxDepth, budget.MaxSteps
	budget.MaxDepth, budget.MaxSteps = depth, steps
	return func() { budget.MaxDepth, budget.MaxSteps = d, s }
}
