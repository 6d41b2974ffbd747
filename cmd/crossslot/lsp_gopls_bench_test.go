package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// gopls beside crossslot's server: the editor runs both on one workspace,
// so BenchmarkLSP reports gopls's peak RSS with the same packages open and
// its time to a first answer for a package, and their ratios. gopls is
// CROSSSLOT_BENCH_GOPLS, else built from the module proxy at goplsVersion,
// the newest that builds with this Go.

const goplsVersion = "v0.23.0"

var (
	goplsOnce sync.Once
	goplsPath string
	goplsErr  error
)

// goplsBin is the gopls binary the benchmark runs, or a skip.
func goplsBin(b *testing.B) string {
	goplsOnce.Do(func() {
		if goplsPath = os.Getenv("CROSSSLOT_BENCH_GOPLS"); goplsPath != "" {
			return
		}
		dir, err := os.MkdirTemp("", "crossslot-gopls")
		if err != nil {
			goplsErr = err
			return
		}
		cmd := exec.Command("go", "install", "golang.org/x/tools/gopls@"+goplsVersion)
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			goplsErr = fmt.Errorf("go install gopls@%s: %v\n%s", goplsVersion, err, out)
			return
		}
		goplsPath = filepath.Join(dir, "gopls")
	})
	if goplsErr != nil {
		b.Skipf("no gopls: %v", goplsErr)
	}
	return goplsPath
}

// goplsServer is gopls driven over its pipes.
type goplsServer struct{ *benchServer }

func startGopls(b *testing.B, t lspTarget) *goplsServer {
	return &goplsServer{startServer(b, t.module, goplsBin(b), "serve")}
}

// open opens a package's first Go file (or the file named) as an editor
// does, with its text, and waits for gopls's diagnostics of it.
func (g *goplsServer) open(t lspTarget, rel string) {
	g.t.Helper()
	file := t.path(rel)
	if !strings.HasSuffix(rel, ".go") {
		matches, _ := filepath.Glob(filepath.Join(t.dirOf(rel), "*.go"))
		if len(matches) == 0 {
			g.t.Fatalf("no Go file in %s", rel)
		}
		file = matches[0]
	}
	text, err := os.ReadFile(file)
	if err != nil {
		g.t.Fatal(err)
	}
	uri := protocol.URI(file)
	g.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)}}, false)
	g.until("gopls's diagnostics of "+rel, func(m protocol.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p protocol.PublishDiagnosticsParams
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri
	})
}

// settle waits until a server's peak RSS has not grown for settleQuiet (at
// most settleLimit) and returns it, in KiB.
func settle(cmd *exec.Cmd) int {
	peak, since := peakRSSOf(cmd), time.Now()
	for start := time.Now(); time.Since(since) < settleQuiet && time.Since(start) < settleLimit; {
		time.Sleep(250 * time.Millisecond)
		if p := peakRSSOf(cmd); p > peak {
			peak, since = p, time.Now()
		}
	}
	return peak
}

const (
	settleQuiet = 5 * time.Second
	settleLimit = 2 * time.Minute
)
