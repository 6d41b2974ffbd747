package lsp

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

func fileStamps(files []string) map[string]time.Time {
	stamps := map[string]time.Time{}
	for _, f := range files {
		stamps[f] = stampOf(f)
	}
	return stamps
}

// stampOf is a file's modification time, zero when it does not exist.
func stampOf(file string) time.Time {
	if fi, err := os.Stat(file); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}

// A change is what happened to the program's files since it was last
// checked: the packages whose files changed, or a reason to load it again.
type change struct {
	changed []*node
	reload  string // why the program must be loaded again; "" if not
}

// changesOnDisk compares the files' modification times with those seen:
// files changed, come or gone, go.mod or go.sum changed.
func (p *program) changesOnDisk() change {
	for f, t := range p.modStamps {
		if !stampOf(f).Equal(t) {
			return change{reload: filepath.Base(f) + " changed"}
		}
	}
	var c change
	dirs := map[string]int{} // Go files per directory, as loaded
	for _, n := range p.nodes {
		if !n.workspace || len(n.pkg.GoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(n.pkg.GoFiles[0])
		if _, ok := dirs[dir]; !ok {
			dirs[dir] = 0
		}
		for f, t := range n.stamps {
			now := stampOf(f)
			if now.IsZero() {
				return change{reload: filepath.Base(f) + " is gone"}
			}
			if !now.Equal(t) {
				c.changed = append(c.changed, n)
				break
			}
		}
	}
	for dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return change{reload: err.Error()}
		}
		for _, e := range entries {
			if f := filepath.Join(dir, e.Name()); strings.HasSuffix(f, ".go") && !e.IsDir() && !p.known[f] {
				return change{reload: "new file " + e.Name()}
			}
		}
	}
	return c
}

// affected are the changed packages and every package that imports them,
// in an order they can be checked again in: each after what it imports, and
// the packages of first's directories as early as that allows, so that
// what was edited is published before its importers are checked.
func (p *program) affected(changed []*node, first []string) []*node {
	marked := map[*node]bool{}
	var mark func(n *node)
	mark = func(n *node) {
		if marked[n] || strings.HasSuffix(n.pkg.ID, ".test") {
			return // a test main, generated: no key in it
		}
		marked[n] = true
		for _, imp := range n.importers {
			mark(imp)
		}
	}
	for _, n := range changed {
		mark(n)
	}
	waiting := p.importsAmong(marked)
	var order []*node
	placed := map[*node]bool{}
	for len(order) < len(marked) {
		var next *node
		for n := range marked {
			if waiting[n] != 0 || placed[n] {
				continue
			}
			if next == nil || before(n, next, first) {
				next = n
			}
		}
		if next == nil {
			break // a cycle: cannot be
		}
		order, placed[next] = append(order, next), true
		for _, imp := range next.importers {
			if marked[imp] {
				waiting[imp]--
			}
		}
	}
	return order
}

// importsAmong counts, for each package of the set, its imports in the set.
func (p *program) importsAmong(set map[*node]bool) map[*node]int {
	counts := map[*node]int{}
	for n := range set {
		for _, imp := range n.pkg.Imports {
			if set[p.byPkg[imp]] {
				counts[n]++
			}
		}
	}
	return counts
}

// before orders the packages ready to be checked: those of the edited
// directories first, then as loaded.
func before(a, b *node, first []string) bool {
	ina, inb := slices.Contains(first, a.dir()), slices.Contains(first, b.dir())
	if ina != inb {
		return ina
	}
	return a.index < b.index
}

// recheck checks the changed packages and their importers again, in the
// order affected gives, as many at a time as there are CPUs within
// checkBudget (withinBudget), each once what it imports is done, calling
// checked after each (on the caller's goroutine). An importer whose files did not change and none of whose dependencies
// changed API or facts (an edit of a comment, of a function body that
// builds no key) is only type-checked again: its facts are carried over to
// its new objects and its diagnostics kept.
func (p *program) recheck(order, changed []*node, overlay map[string][]byte, a *analysis.Analyzer, checked func(*node)) check {
	edited := map[*node]bool{}
	for _, n := range changed {
		edited[n] = true
	}
	inOrder := map[*node]bool{}
	for _, n := range order {
		inOrder[n] = true
	}
	waiting := p.importsAmong(inOrder) // imports not checked yet
	type outcome struct {
		n            *node
		res          check
		factsChanged bool
	}
	outcomes := make(chan outcome)
	newFacts := map[*types.Package]bool{} // packages whose API or facts changed, by their new types
	started := map[*node]bool{}
	status, running, inFlight := checkedOK, 0, int64(0)
	for {
		for _, n := range order {
			if running >= runtime.GOMAXPROCS(0) || status != checkedOK {
				break
			}
			if started[n] || waiting[n] > 0 || !withinBudget(running, inFlight, n) {
				continue
			}
			started[n], running, inFlight = true, running+1, inFlight+n.weight
			n.deps = nil // its dependencies' types are new
			reuse := !edited[n]
			for dep := range p.depsOf(n) {
				reuse = reuse && !newFacts[dep]
			}
			go func() {
				res, factsChanged := p.check(n, overlay, a, reuse)
				outcomes <- outcome{n, res, factsChanged}
			}()
		}
		if running == 0 {
			return status
		}
		o := <-outcomes
		running, inFlight = running-1, inFlight-o.n.weight
		switch {
		case o.res == reload || status == reload:
			status = reload
		case o.res == broken:
			status = broken
		case status == checkedOK:
			if o.factsChanged {
				newFacts[o.n.pkg.Types] = true
			}
			for _, imp := range o.n.importers {
				waiting[imp]--
			}
			checked(o.n)
		}
	}
}

// A heldFact is one fact a package exported, by the object's path within
// its package ("" for a package fact), for carrying over to the package's
// next types.
type heldFact struct {
	path objectpath.Path
	pkg  bool
	fact analysis.Fact
}

// dropFacts removes the package's facts from the program and returns them.
func (p *program) dropFacts(n *node) []heldFact {
	p.facts.Lock()
	defer p.facts.Unlock()
	var out []heldFact
	for _, k := range n.exported {
		path, err := objectpath.For(k.obj)
		if err != nil {
			path = "" // not carried over: the package is analyzed again
		}
		out = append(out, heldFact{path: path, fact: p.objects[k]})
		delete(p.objects, k)
	}
	for _, k := range n.exportedPkg {
		out = append(out, heldFact{pkg: true, fact: p.pkgFacts[k]})
		delete(p.pkgFacts, k)
	}
	n.exported, n.exportedPkg = nil, nil
	return out
}

// factsOf are the package's facts as dropFacts would return them.
func (p *program) factsOf(n *node) []heldFact {
	p.facts.RLock()
	defer p.facts.RUnlock()
	var out []heldFact
	for _, k := range n.exported {
		path, _ := objectpath.For(k.obj)
		out = append(out, heldFact{path: path, fact: p.objects[k]})
	}
	for _, k := range n.exportedPkg {
		out = append(out, heldFact{pkg: true, fact: p.pkgFacts[k]})
	}
	return out
}

// carryOver puts the package's former facts on its new objects; false when
// one has no path or no object of that path now (nothing is carried then).
func (p *program) carryOver(n *node, old []heldFact) bool {
	var objs []types.Object
	for _, h := range old {
		if h.pkg {
			objs = append(objs, nil)
			continue
		}
		obj, err := objectpath.Object(n.pkg.Types, h.path)
		if h.path == "" || err != nil {
			return false
		}
		objs = append(objs, obj)
	}
	p.facts.Lock()
	defer p.facts.Unlock()
	for i, h := range old {
		if h.pkg {
			k := packageFactKey{n.pkg.Types, reflect.TypeOf(h.fact)}
			p.pkgFacts[k] = h.fact
			n.exportedPkg = append(n.exportedPkg, k)
			continue
		}
		k := objectFactKey{objs[i], reflect.TypeOf(h.fact)}
		p.objects[k] = h.fact
		n.exported = append(n.exported, k)
	}
	return true
}

// sameFacts compares two packages' facts by their objects' paths and
// encodings (gob's, which facts must support).
func sameFacts(a, b []heldFact) bool {
	key := func(hs []heldFact) []string {
		var out []string
		for _, h := range hs {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(h.fact); err != nil {
				return nil
			}
			out = append(out, fmt.Sprintf("%v %s %T %x", h.pkg, h.path, h.fact, buf.Bytes()))
		}
		slices.Sort(out)
		return out
	}
	ka, kb := key(a), key(b)
	return ka != nil && kb != nil && slices.Equal(ka, kb)
}
