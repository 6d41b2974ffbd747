package lsp

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// open publishes a directory's diagnostics: from the program when it holds
// the directory's packages, else from go vet, while the program is loaded
// again with the directory.
func (s *server) open(dir string) {
	start := time.Now()
	s.opened[dir] = true
	if s.program != nil {
		s.recheck(s.changed(nil)) // edits made on disk meanwhile
	}
	if s.program != nil {
		if nodes := s.program.inDir(dir); len(nodes) > 0 {
			s.publishNodes(dir, nodes)
			s.logAnalysis("published", dir, start)
			return
		}
	}
	s.vet(dir)
	if !s.loading {
		s.load() // with the directory; a load under way loads again after
	}
}

// changed is what the files changed since the program was checked: the
// packages of the files saved or changed on disk (their modification times
// tell, whether or not the client watches them), or nil and a load when
// the program must be loaded again.
func (s *server) changed(saved []string) []*node {
	c := s.program.changesOnDisk()
	if c.reload != "" {
		s.logMessage("crossslot: loading the workspace again: " + c.reload)
		s.program = nil
		s.load()
		for dir := range s.opened {
			s.vet(dir)
		}
		return nil
	}
	for _, f := range saved {
		for _, n := range s.program.holding(f) {
			if !slices.Contains(c.changed, n) {
				c.changed = append(c.changed, n)
			}
		}
	}
	return c.changed
}

// checkEdited analyzes the packages of the unsaved buffers edited since the
// last quiet spell.
func (s *server) checkEdited() {
	if s.program == nil {
		return // the load takes the overlays
	}
	var edited []string
	for f := range s.edited {
		edited = append(edited, f)
	}
	clear(s.edited)
	s.recheck(s.changed(edited))
}

// recheck checks the changed packages and their importers again, and
// publishes each directory opened among them as soon as its packages are
// checked: the edited one first.
func (s *server) recheck(changed []*node) {
	if len(changed) == 0 || s.program == nil {
		return
	}
	start := time.Now()
	var edited []string
	for _, n := range changed {
		edited = append(edited, n.dir())
	}
	order := s.program.affected(changed, edited)
	left := map[string]int{} // packages to check, by directory
	for _, n := range order {
		left[n.dir()]++
	}
	res := s.program.recheck(order, changed, s.overlays, s.analyzer, func(n *node) {
		dir := n.dir()
		if left[dir]--; left[dir] == 0 && s.opened[dir] {
			s.publishNodes(dir, s.program.inDir(dir))
			s.logAnalysis("analyzed again", dir, start)
		}
		// The findings it judged for other packages (see publishNodes).
		for _, other := range n.judgedFor(s.program.fset) {
			if other != dir && left[other] == 0 && s.opened[other] {
				s.publishNodes(other, s.program.inDir(other))
			}
		}
	})
	switch res {
	case broken:
		// Typed half-way: the last diagnostics stay until it checks.
		s.log(protocol.MessageLog, "crossslot: kept a package that does not type-check; its diagnostics are those of its last version that did")
	case reload:
		s.program = nil
		s.load()
		for dir := range s.opened {
			s.vet(dir)
		}
	}
}

// An loadResult is a load's outcome.
type loadResult struct {
	program  *program
	err      error
	overlays map[string][]byte // as the load saw them
	dirs     []string          // the directories opened when it started
	start    time.Time
}

// load loads the program in the background: the workspace's packages (or,
// in a large workspace, those of the directories opened) and every
// directory opened, with the unsaved buffers.
func (s *server) load() {
	if s.loading {
		s.again = true
		return
	}
	s.loading, s.again = true, false
	overlays := maps.Clone(s.overlays)
	dirs := slices.Sorted(maps.Keys(s.opened))
	root := s.root
	go func() {
		start := time.Now()
		p, err := loadProgram(root, loadPatterns(root, dirs), overlays, s.analyzer, analyzer.NewGate(&s.cfg))
		s.loaded <- loadResult{program: p, err: err, overlays: overlays, dirs: dirs, start: start}
	}()
}

// maxWorkspacePackages bounds the workspaces loaded whole: a larger one is
// loaded by the directories opened.
const maxWorkspacePackages = 300

// loadPatterns are what the program loads: the workspace's packages when
// they are few enough, and the directories opened outside them.
func loadPatterns(root string, opened []string) []string {
	var patterns []string
	covered := func(string) bool { return false }
	if n, ok := workspacePackages(root); ok && n <= maxWorkspacePackages {
		patterns = append(patterns, "./...")
		covered = func(dir string) bool {
			rel, err := filepath.Rel(root, dir)
			return err == nil && !strings.HasPrefix(rel, "..") && !inOtherModule(root, dir)
		}
	}
	for _, dir := range opened {
		if !covered(dir) {
			patterns = append(patterns, dir)
		}
	}
	return patterns
}

// workspacePackages counts the packages of the workspace's module.
func workspacePackages(root string) (int, bool) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return 0, false
	}
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return 0, false
	}
	return strings.Count(string(out), "\n"), true
}

// inOtherModule reports a directory below root that belongs to a module of
// its own.
func inOtherModule(root, dir string) bool {
	for d := dir; d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
	}
	return false
}

// adopt takes a loaded program: what changed while it loaded is checked
// again, and every directory opened is published from it.
func (s *server) adopt(res loadResult) {
	s.loading = false
	if res.err != nil {
		s.logMessage(fmt.Sprintf("crossslot: loading %s: %v", s.root, res.err))
	} else {
		s.program = res.program
		var edited []string
		for f, text := range s.overlays {
			if !bytes.Equal(res.overlays[f], text) {
				edited = append(edited, f)
			}
		}
		for f := range res.overlays {
			if _, ok := s.overlays[f]; !ok {
				edited = append(edited, f) // closed or saved since
			}
		}
		if changed := s.changed(edited); s.program != nil {
			if s.program.recheck(s.program.affected(changed, nil), changed, s.overlays, s.analyzer, func(*node) {}) == reload {
				s.program, s.again = nil, true
			}
		}
	}
	if s.program != nil {
		var dirs []string
		for dir := range s.opened {
			dirs = append(dirs, dir)
		}
		sort.Strings(dirs)
		for _, dir := range dirs {
			if nodes := s.program.inDir(dir); len(nodes) > 0 {
				s.publishNodes(dir, nodes)
				s.logAnalysis("loaded and analyzed", dir, res.start)
			} else if !slices.Contains(res.dirs, dir) {
				s.again = true // opened while it loaded
			}
		}
	}
	if s.again {
		s.load()
	}
}

func (s *server) logAnalysis(how, dir string, start time.Time) {
	s.log(protocol.MessageLog, fmt.Sprintf("crossslot: %s %s in %v", how, dir, time.Since(start).Round(time.Millisecond)))
}

// vet publishes a directory's diagnostics as go vet finds them, with this
// executable as its tool: it reuses the build cache and go vet's facts.
func (s *server) vet(dir string) {
	start := time.Now()
	found, files, err := vetDir(dir)
	if err != nil {
		s.logMessage(fmt.Sprintf("crossslot: go vet in %s: %v", dir, err))
		if files == nil {
			return
		}
	}
	s.publish(dir, files, found)
	s.logAnalysis("vetted", dir, start)
}
