package lsp

import (
	"bytes"
	"go/ast"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"slices"

	"golang.org/x/tools/go/gcexportdata"
)

// firstChecks runs check on every node, dependencies first (waiting counts
// each one's imports among them), as many at a time as workers, in load
// order, and no more source at once than checkBudget beyond the first.
func firstChecks(nodes []*node, waiting map[*node]int, workers int, check func(*node)) {
	done := make(chan *node)
	running, inFlight := 0, int64(0)
	ready := slices.Clone(nodes)
	for len(ready) > 0 || running > 0 {
		for i := 0; i < len(ready) && running < workers; {
			n := ready[i]
			if waiting[n] > 0 || !withinBudget(running, inFlight, n) {
				i++
				continue
			}
			ready = slices.Delete(ready, i, i+1)
			running++
			inFlight += n.weight
			go func() {
				check(n)
				done <- n
			}()
		}
		n := <-done
		running--
		inFlight -= n.weight
		for _, imp := range n.importers {
			waiting[imp]--
		}
	}
}

// withinBudget reports whether n may be checked beside the running checks,
// which hold inFlight bytes of source: alone, or within checkBudget.
func withinBudget(running int, inFlight int64, n *node) bool {
	return running == 0 || inFlight+n.weight <= checkBudget
}

// checkBudget bounds the source of the packages checked at once, when the
// program is loaded and when it is checked again, beyond the first: a
// package's syntax, type information and the analyzer's reading of it are
// live until it is analyzed, and a large package's are tens of MiB
// (asynq's with its tests: 400 KB of source, 30 MiB). Small packages are
// still checked as many at a time as there are CPUs; two large ones are
// not. On 2 cores that costs no time: the collector's work shrinks as much.
const checkBudget = 512 << 10

// sourceWeight is what a package's check holds at once, in bytes of
// source: its files' size, a quarter of it for a package checked for its
// types only (no type information recorded, no comments, nothing analyzed).
func (n *node) sourceWeight(overlay map[string][]byte) int64 {
	var size int64
	for _, f := range n.pkg.CompiledGoFiles {
		if text, ok := overlay[f]; ok {
			size += int64(len(text))
		} else if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	if n.typesOnly {
		return size / 4
	}
	return size
}

// memoryFloor is the soft memory limit the server keeps while what it holds
// is small: below it, the garbage collector lets the heap grow to twice what
// is live (GOGC=100), and checking one large package is tens of MiB live for
// a moment, so a program that keeps 17 MiB (asynq's) would peak at 100 MiB.
const memoryFloor = 64 << 20

// limitMemory sets the runtime's soft memory limit to twice the heap live
// at the last collection, memoryFloor at least, while a program loads: a
// program that holds much is paced as by default, one that holds little
// stays under the floor. A GOMEMLIMIT set by the user is left as it is.
// Once loaded, the limit is lifted (unlimitMemory): the collections it
// brings cost a check of several large packages twice its time, and
// rechecks are what a user waits for.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(max(memoryFloor, 2*int64(s[0].Value.Uint64())))
}

// unlimitMemory lifts the limit limitMemory set.
func unlimitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// compact replaces the types of a package the analyzer reads only the types
// of, checked from source, by the same types read back from their export
// data, once the packages it imports are compact too: go/types keeps, for
// a package checked from source, a scope for every function's parameters
// and every file, which its importers never read, and the line tables of
// its files; the types read from export data hold its declarations only.
// Its importers are checked against those. A package of the workspace,
// which can change, or a test variant (whose path is another's) is not
// compacted, nor anything that imports it.
func (p *program) compact(n *node, files []*ast.File) {
	pkg := n.pkg
	if n.workspace || pkg.ID != pkg.PkgPath {
		return
	}
	for _, imp := range pkg.Imports {
		if d := p.byPkg[imp]; imp.PkgPath != "unsafe" && (d == nil || !d.compact) {
			return
		}
	}
	var data bytes.Buffer
	if err := gcexportdata.Write(&data, p.fset, pkg.Types); err != nil {
		logf("compacting %s: %v", pkg.PkgPath, err)
		return
	}
	p.compactMu.Lock()
	defer p.compactMu.Unlock()
	read, err := gcexportdata.Read(&data, p.fset, p.compacted, pkg.PkgPath)
	if err != nil {
		delete(p.compacted, pkg.PkgPath)
		logf("compacting %s: %v", pkg.PkgPath, err)
		return
	}
	pkg.Types, n.compact = read, true
	for _, f := range files {
		p.fset.RemoveFile(p.fset.File(f.Pos()))
	}
}
