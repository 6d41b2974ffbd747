package analyzer

// Tests run with the analyzer's recover turned off, so that a panic on
// unusual code fails a test instead of turning into silence.
func init() { rethrowPanics = true }
