package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// BenchmarkLSP drives `crossslot lsp` over its pipes, as an editor does, and
// reports the median time of each path from the client's message to the
// diagnostics it waits for, beside `go vet -vettool=crossslot` on the same
// change in the same run (its build cache warmed by a run before):
//
//   - save: a file of the edited package changed and saved;
//   - import: a file of a package two others import changed and saved, until
//     both importers publish (vet: the three packages);
//   - builder: the same for a change of a key builder there, which changes
//     its facts: the importers are analyzed again, not only type-checked;
//   - disk: a file changed on disk outside the editor, the watcher's notice
//     sent;
//   - typing: the buffer changed and not saved (vet: the change saved);
//   - open: a new server's first answer for a package (vet: that package);
//   - rss: the server's peak RSS (MiB) after opening 1, 3 and 10 packages.
//
// Each path of changes also reports the server's peak RSS once its changes
// are analyzed (MiB-peak): its program after a load and those rechecks.
//
// gopls runs beside it in the editor: open and rss report gopls's figures
// on the same packages too (gopls-ms; gopls-MiB-after-N, right after its
// diagnostics of the Nth package), and, with both servers running side by
// side on every package opened, each one's peak RSS once it is quiet
// (MiB-settled, gopls-MiB-settled) and their ratio (x-gopls-settled)
// (lsp_gopls_bench_test.go).
//
// The targets: the bundled example (its keys package imported by main and by
// a second package the benchmark adds to its copy), and asynq v0.26.0
// (internal/base, imported by internal/rdb and the root package), set with
// CROSSSLOT_BENCH_ASYNQ=DIR to a copy of the module, or fetched through the
// module proxy.
//
//	go test ./cmd/crossslot -run '^$' -bench LSP -benchtime 10x -count 5
func BenchmarkLSP(b *testing.B) {
	b.Run("example", func(b *testing.B) {
		dir := cmdtest.CopyDir(b, exampleDir)
		second := filepath.Join(dir, "report", "report.go")
		os.MkdirAll(filepath.Dir(second), 0o755)
		if err := os.WriteFile(second, []byte(exampleSecondImporter), 0o644); err != nil {
			b.Fatal(err)
		}
		benchLSP(b, lspTarget{module: dir, edited: "main.go", imported: "keys/keys.go", importers: []string{".", "report"},
			builder: [2]string{`fmt.Sprintf("cart:%d", id)`, `fmt.Sprintf("cart:%d:v2", id)`}})
	})
	b.Run("asynq", func(b *testing.B) {
		src := os.Getenv("CROSSSLOT_BENCH_ASYNQ")
		if src == "" {
			out, err := exec.Command("go", "mod", "download", "-json", "github.com/hibiken/asynq@v0.26.0").Output()
			if err != nil {
				b.Skipf("asynq v0.26.0 not available: %v", err)
			}
			var m struct{ Dir string }
			json.Unmarshal(out, &m)
			src = m.Dir
		}
		dir := cmdtest.CopyDir(b, src)
		benchLSP(b, lspTarget{module: dir, edited: "internal/rdb/rdb.go", imported: "internal/base/base.go", importers: []string{".", "internal/rdb"},
			builder: [2]string{`return QueueKeyPrefix(qname) + "t:"`, `return QueueKeyPrefix(qname) + "t2:"`},
			more:    []string{"internal/errors", "internal/context", "internal/log", "internal/proto", "internal/timeutil", "internal/testbroker", "internal/testutil"}})
	})
}

const exampleSecondImporter = `// Package report is a second importer of keys, for BenchmarkLSP.
package report

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/shop/keys"
)

func Carts(ctx context.Context, rdb redis.UniversalClient) error {
	return rdb.MGet(ctx, keys.Cart(1), keys.Cart(2)).Err()
}
`

// An lspTarget is a module to drive the server over: files and package
// directories relative to it.
type lspTarget struct {
	module    string
	edited    string    // a file of the package edited
	imported  string    // a file of a package the importers import
	importers []string  // two packages that import it
	builder   [2]string // a key builder's text in the imported file, and another
	more      []string  // other packages, opened for the RSS figures
}

func (t lspTarget) path(rel string) string { return filepath.Join(t.module, rel) }

// dirOf is the absolute directory of a file or package directory.
func (t lspTarget) dirOf(rel string) string {
	p := t.path(rel)
	if strings.HasSuffix(rel, ".go") {
		return filepath.Dir(p)
	}
	return p
}

func benchLSP(b *testing.B, t lspTarget) {
	env := fixtureEnv()
	vetIn := func(module string, pkgs ...string) time.Duration {
		start := time.Now()
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + crossslotBin}, pkgs...)...)
		cmd.Dir, cmd.Env = module, env
		cmd.CombinedOutput()
		return time.Since(start)
	}
	vet := func(pkgs ...string) time.Duration { return vetIn(t.module, pkgs...) }
	// go vet on a saved change, for the unsaved buffer: in a copy, where
	// the server does not see the file change
	twin := cmdtest.CopyDir(b, t.module)
	vetIn(twin, "./...")
	rel := func(dir string) string {
		return "./" + filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(dir, t.module), "/"))
	}
	editedPkg, importedPkg := rel(t.dirOf(t.edited)), rel(t.dirOf(t.imported))
	vet("./...") // warm the build cache and go vet's facts

	b.Run("save", func(b *testing.B) {
		s := startBenchServer(b, t, t.edited)
		s.measure(b, func() { appendLine(t.path(t.edited)) }, func() {
			s.send("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.path(t.edited))}}, false)
		}, []string{t.dirOf(t.edited)}, func() time.Duration { return vet(editedPkg) })
	})
	b.Run("import", func(b *testing.B) {
		var dirs, pkgs []string
		for _, d := range t.importers {
			dirs, pkgs = append(dirs, t.dirOf(d)), append(pkgs, rel(t.dirOf(d)))
		}
		s := startBenchServer(b, t, append([]string{t.imported}, t.importers...)...)
		s.measure(b, func() { appendLine(t.path(t.imported)) }, func() {
			s.send("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.path(t.imported))}}, false)
		}, dirs, func() time.Duration { return vet(append([]string{importedPkg}, pkgs...)...) })
	})
	b.Run("builder", func(b *testing.B) {
		var dirs, pkgs []string
		for _, d := range t.importers {
			dirs, pkgs = append(dirs, t.dirOf(d)), append(pkgs, rel(t.dirOf(d)))
		}
		s := startBenchServer(b, t, append([]string{t.imported}, t.importers...)...)
		s.measure(b, func() {
			text, _ := os.ReadFile(t.path(t.imported))
			from, to := t.builder[0], t.builder[1]
			if !strings.Contains(string(text), from) {
				from, to = to, from // changed by the run before
			}
			if !strings.Contains(string(text), from) {
				b.Fatalf("%s has no %s", t.imported, from)
			}
			os.WriteFile(t.path(t.imported), []byte(strings.Replace(string(text), from, to, 1)), 0o644)
		}, func() {
			s.send("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.path(t.imported))}}, false)
		}, dirs, func() time.Duration { return vet(append([]string{importedPkg}, pkgs...)...) })
	})
	b.Run("disk", func(b *testing.B) {
		s := startBenchServer(b, t, t.edited)
		s.measure(b, func() { appendLine(t.path(t.edited)) }, func() {
			s.send("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": protocol.URI(t.path(t.edited)), "type": 2}}}, false)
		}, []string{t.dirOf(t.edited)}, func() time.Duration { return vet(editedPkg) })
	})
	b.Run("typing", func(b *testing.B) {
		s := startBenchServer(b, t, t.edited)
		text, _ := os.ReadFile(t.path(t.edited))
		typed := 0
		s.measure(b, func() { typed++ }, func() {
			s.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.path(t.edited)), "version": typed + 1},
				"contentChanges": []map[string]any{{"text": string(text) + strings.Repeat("\n// typed", typed)}}}, false)
		}, []string{t.dirOf(t.edited)}, func() time.Duration {
			appendLine(filepath.Join(twin, t.edited))
			return vetIn(twin, editedPkg)
		})
	})
	b.Run("open", func(b *testing.B) {
		var opens, vets, goplsOpens []time.Duration
		for range b.N {
			start := time.Now()
			g := startGopls(b, t)
			g.open(t, t.edited)
			goplsOpens = append(goplsOpens, time.Since(start))
			g.stop()
		}
		for range b.N {
			vets = append(vets, vet(editedPkg))
			start := time.Now()
			s := startBenchServer(b, t, "")
			s.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.path(t.edited)), "languageId": "go", "version": 1, "text": ""}}, false)
			s.awaitAny([]string{"vetted", "published"}, t.dirOf(t.edited))
			opens = append(opens, time.Since(start))
			s.stop()
		}
		reportLSP(b, opens, vets)
		b.ReportMetric(medianMS(goplsOpens), "gopls-ms")
	})
	b.Run("rss", func(b *testing.B) {
		all := append([]string{t.edited, t.imported}, t.importers...)
		all = append(all, t.more...)
		var after []int
		for range b.N {
			s := startBenchServer(b, t, "")
			var peaks []int
			for i, p := range all {
				s.openPackage(t, p, i == 0)
				peaks = append(peaks, s.peakRSS())
			}
			s.stop()
			after = peaks
		}
		var goplsAfter []int
		var settled, goplsSettled []float64
		for range b.N {
			s := startBenchServer(b, t, "")
			g := startGopls(b, t)
			var peaks []int
			for i, p := range all {
				s.openPackage(t, p, i == 0)
				g.open(t, p)
				peaks = append(peaks, g.peakRSS())
			}
			goplsAfter = peaks
			// Both keep working after their first answers (gopls type-checks
			// and analyzes the workspace): their peaks once they are quiet.
			settled = append(settled, float64(settle(s.cmd))/1024)
			goplsSettled = append(goplsSettled, float64(settle(g.cmd))/1024)
			g.stop()
			s.stop()
		}
		slices.Sort(settled)
		slices.Sort(goplsSettled)
		b.ReportMetric(settled[len(settled)/2], "MiB-settled")
		b.ReportMetric(goplsSettled[len(goplsSettled)/2], "gopls-MiB-settled")
		b.ReportMetric(settled[len(settled)/2]/goplsSettled[len(goplsSettled)/2], "x-gopls-settled")
		for _, n := range []int{1, 3, 10} {
			if n <= len(after) {
				b.ReportMetric(float64(after[n-1])/1024, fmt.Sprintf("MiB-after-%d", n))
				b.ReportMetric(float64(goplsAfter[n-1])/1024, fmt.Sprintf("gopls-MiB-after-%d", n))
				b.ReportMetric(float64(after[n-1])/float64(goplsAfter[n-1]), fmt.Sprintf("x-gopls-after-%d", n))
			}
		}
		b.ReportMetric(0, "ns/op")
	})
}

// A benchServer is a server driven by the benchmark.
type benchServer struct {
	*lspClient
	cmd *exec.Cmd
}

// startBenchServer starts a server in the target's module and opens the
// packages of the files given, waiting until the program holds them.
func startBenchServer(b *testing.B, t lspTarget, files ...string) *benchServer {
	s := startServer(b, t.module, crossslotBin, "lsp")
	for i, f := range files {
		if f != "" {
			s.openPackage(t, f, i == 0)
		}
	}
	return s
}

// openPackage opens the package of a file or directory, as a new file of it
// would be, and waits for its first answer; first also waits until the
// program holds it.
func (s *benchServer) openPackage(t lspTarget, rel string, first bool) {
	s.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(t.dirOf(rel) + "/x.go"), "languageId": "go", "version": 1, "text": ""}}, false)
	s.awaitAny([]string{"vetted", "published"}, t.dirOf(rel))
	if first {
		s.awaitAny([]string{"loaded and analyzed"}, t.dirOf(rel))
	}
}

// startServer starts a language server (bin with args) in dir, and
// initializes it for a client with no capabilities.
func startServer(b *testing.B, dir, bin string, args ...string) *benchServer {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, fixtureEnv()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &benchServer{lspClient: &lspClient{t: b, in: in, out: bufio.NewReader(out)}, cmd: cmd}
	b.Cleanup(s.stop)
	id := s.send("initialize", map[string]any{"processId": nil, "rootUri": protocol.URI(dir), "capabilities": map[string]any{}}, true)
	s.until(filepath.Base(bin)+"'s initialize result", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
	s.send("initialized", map[string]any{}, false)
	return s
}

func (s *benchServer) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// awaitAny reads until the server logs one of the ways for dir.
func (s *benchServer) awaitAny(hows []string, dir string) {
	s.t.Helper()
	s.until(strings.Join(hows, " or ")+" "+dir, func(m protocol.Message) bool {
		if m.Method != "window/logMessage" {
			return false
		}
		var p struct{ Message string }
		json.Unmarshal(m.Params, &p)
		return slices.ContainsFunc(hows, func(how string) bool { return strings.HasPrefix(p.Message, "crossslot: "+how+" "+dir+" in ") })
	})
}

// measure runs b.N times: prepare (not timed), then act, timed until every
// directory of dirs is analyzed again; vet is timed once every time too.
func (s *benchServer) measure(b *testing.B, prepare, act func(), dirs []string, vet func() time.Duration) {
	var times, vets []time.Duration
	for range b.N {
		prepare()
		start := time.Now()
		act()
		waiting := slices.Clone(dirs)
		for len(waiting) > 0 {
			m := s.until("analyzed again "+strings.Join(waiting, ", "), func(m protocol.Message) bool { return m.Method == "window/logMessage" })
			var p struct{ Message string }
			json.Unmarshal(m.Params, &p)
			waiting = slices.DeleteFunc(waiting, func(d string) bool { return strings.HasPrefix(p.Message, "crossslot: analyzed again "+d+" in ") })
		}
		times = append(times, time.Since(start))
		vets = append(vets, vet())
	}
	reportLSP(b, times, vets)
	b.ReportMetric(float64(s.peakRSS())/1024, "MiB-peak")
}

// peakRSS is the server's peak resident set, in KiB (Linux; 0 elsewhere).
func (s *benchServer) peakRSS() int { return peakRSSOf(s.cmd) }

// peakRSSOf is a process's peak resident set, in KiB (Linux; 0 elsewhere).
func peakRSSOf(cmd *exec.Cmd) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kib)
			return kib
		}
	}
	return 0
}

// reportLSP reports the medians, in milliseconds, of the server's times and of
// go vet's.
func reportLSP(b *testing.B, times, vets []time.Duration) {
	b.ReportMetric(medianMS(times), "ms")
	b.ReportMetric(medianMS(vets), "vet-ms")
	b.ReportMetric(0, "ns/op")
}

// medianMS is the median of durations, in milliseconds.
func medianMS(d []time.Duration) float64 {
	d = slices.Clone(d)
	slices.Sort(d)
	return float64(d[len(d)/2].Microseconds()) / 1000
}

// appendLine changes a file as a save would.
func appendLine(file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(text, "\n// saved "+time.Now().String()+"\n"...), 0o644)
}
