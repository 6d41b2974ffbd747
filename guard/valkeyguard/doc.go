package valkeyguard

// valkeyguard.go and valkeyguard_test.go are rueidisguard's, renamed.
//go:generate go run ./internal/gen
