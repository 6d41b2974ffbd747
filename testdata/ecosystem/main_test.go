package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLabels(t *testing.T) {
	require.NotEmpty(t, Labels("1"))
	assert.Contains(t, Labels("1"), "user")
}
