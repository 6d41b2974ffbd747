package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
)

// BenchmarkLSPSave drives `crossslot lsp` over its pipes: it opens a file,
// then saves it b.N times (its text changed each time) and reports the
// median time from didSave to the file's publishDiagnostics, beside the
// time of `go vet -vettool=crossslot` on the same package in the same run
// (a build cache warmed by one run before). The targets: the bundled
// example's main package, and asynq v0.26.0's internal/rdb (a module of
// several packages importing go-redis), set with CROSSSLOT_BENCH_ASYNQ=DIR
// to a copy of the module, or fetched through the module proxy.
//
//	go test ./cmd/crossslot -run '^$' -bench LSPSave -benchtime 10x -count 5
func BenchmarkLSPSave(b *testing.B) {
	b.Run("example", func(b *testing.B) {
		dir := cmdtest.CopyDir(b, exampleDir)
		benchSaves(b, dir, ".", filepath.Join(dir, "main.go"))
	})
	b.Run("asynq-rdb", func(b *testing.B) {
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
		benchSaves(b, dir, "./internal/rdb", filepath.Join(dir, "internal", "rdb", "rdb.go"))
	})
}

func benchSaves(b *testing.B, module, pkg, file string) {
	env := fixtureEnv()
	vet := exec.Command("go", "vet", "-vettool="+crossslotBin, pkg)
	vet.Dir, vet.Env = module, env
	vet.CombinedOutput() // warm the build cache and go vet's facts
	// go vet after a save: the file changed, so the package is vetted again
	// (its dependencies' results come from the cache).
	if err := appendLine(file); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	vet = exec.Command("go", "vet", "-vettool="+crossslotBin, pkg)
	vet.Dir, vet.Env = module, env
	vet.CombinedOutput()
	vetTime := time.Since(start)

	cmd := exec.Command(crossslotBin, "lsp")
	cmd.Dir, cmd.Env = module, env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c := &lspClient{t: b, in: in, out: bufio.NewReader(out)}
	c.send("initialize", map[string]any{"processId": nil, "rootUri": toURI(module), "capabilities": map[string]any{}}, true)
	c.send("initialized", map[string]any{}, false)
	dir := filepath.Dir(file)
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": toURI(file), "languageId": "go", "version": 1, "text": ""}}, false)
	c.analyzed(dir, file)
	var saves []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if err := appendLine(file); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		c.send("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": toURI(file)}}, false)
		c.analyzed(dir, file)
		saves = append(saves, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(saves, func(i, j int) bool { return saves[i] < saves[j] })
	b.ReportMetric(float64(saves[len(saves)/2].Microseconds())/1000, "ms/save")
	b.ReportMetric(float64(vetTime.Milliseconds()), "vet-ms")
	b.ReportMetric(0, "ns/op")
}

// appendLine changes a file as a save would.
func appendLine(file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(text, "\n// saved "+time.Now().String()+"\n"...), 0o644)
}
