package slotcalc

import (
	"os"
	"testing"

	"github.com/crossslot/crossslot/internal/redistest"
)

// TestMain says, in one line, which live tests were skipped for want of a
// server.
func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }
