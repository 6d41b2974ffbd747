// Package models is a stub of GLIDE's reply types.
package models

type Result[T any] struct{ v T }

type ClusterValue[T any] struct{ v T }

type ClusterScanCursor struct{}

func NewClusterScanCursor() ClusterScanCursor { return ClusterScanCursor{} }
