package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// TestInternalErrorIsToldApart builds the command so that its analysis
// panics on one package of the example, as a bug would, and runs every
// front end that reads a whole module: the package is reported not
// checked, with the panic and its first frames, the other package is still
// checked (its findings are printed), and the exit code is 5, not the
// findings' 1, a usage error's 2 or a compile error's 3. SARIF says the
// invocation did not succeed.
func TestInternalErrorIsToldApart(t *testing.T) {
	const victim = "example.com/shop/store"
	bin := filepath.Join(t.TempDir(), "crossslot-panics")
	build := exec.Command("go", "build", "-ldflags=-X github.com/crossslot/crossslot/analyzer.panicOn="+victim, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(fixtureEnv(), "STATICCHECK_CACHE="+t.TempDir())
	told := func(t *testing.T, out string) {
		t.Helper()
		for _, want := range []string{
			"package " + victim + " is not checked: internal error of crossslot: crossslot test: a bug on " + victim,
			"at analyzer.run (analyzer.go:",
			"CROSSSLOT_DEBUG=1",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output does not say %q:\n%s", want, out)
			}
		}
	}

	t.Run("text", func(t *testing.T) {
		stdout, stderr, code := runIn(t, exampleDir, env, bin, "./...")
		if code != exitInternal {
			t.Errorf("exit %d, want %d\n%s%s", code, exitInternal, stdout, stderr)
		}
		told(t, stdout)
		if !strings.Contains(stdout, "(crossslot)") {
			t.Errorf("the other packages' findings are missing:\n%s", stdout)
		}
		if !strings.Contains(stderr, "exit 5") {
			t.Errorf("stderr does not give the exit code:\n%s", stderr)
		}
	})
	t.Run("sarif", func(t *testing.T) {
		stdout, stderr, code := runIn(t, exampleDir, env, bin, "-f", "sarif", "./...")
		if code != exitInternal {
			t.Errorf("exit %d, want %d\n%s", code, exitInternal, stderr)
		}
		var log struct {
			Runs []struct {
				Invocations []struct {
					ExecutionSuccessful bool `json:"executionSuccessful"`
					Notifications       []struct {
						Message struct{ Text string } `json:"message"`
					} `json:"toolExecutionNotifications"`
				} `json:"invocations"`
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
			t.Fatalf("SARIF %v:\n%s", err, stdout)
		}
		inv := log.Runs[0].Invocations[0]
		if inv.ExecutionSuccessful || len(inv.Notifications) != 1 {
			t.Fatalf("invocation %+v: want executionSuccessful false and one notification", inv)
		}
		told(t, inv.Notifications[0].Message.Text)
		if len(log.Runs[0].Results) == 0 {
			t.Error("no results: the other packages' findings are missing")
		}
	})
	t.Run("readiness", func(t *testing.T) {
		stdout, stderr, code := runIn(t, exampleDir, env, bin, "readiness", "./...")
		if code != exitInternal {
			t.Errorf("exit %d, want %d\n%s%s", code, exitInternal, stdout, stderr)
		}
		told(t, stdout)
	})
	t.Run("lsp", func(t *testing.T) {
		// The editor's log tells of the package left unchecked, and the
		// server goes on: the other package's findings are published.
		dir := cmdtest.CopyDir(t, exampleDir)
		c, _, _ := startLSPOf(t, bin, dir, map[string]any{})
		uri := protocol.URI(filepath.Join(dir, "main.go"))
		c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}}, false)
		logged, published := false, false
		for !logged || !published {
			m := c.until("the internal error's log and main.go's findings", func(m protocol.Message) bool {
				return m.Method == "window/logMessage" || m.Method == "textDocument/publishDiagnostics"
			})
			var p struct {
				Message     string
				URI         string
				Diagnostics []json.RawMessage
			}
			json.Unmarshal(m.Params, &p)
			if m.Method == "window/logMessage" && strings.Contains(p.Message, "is not checked") {
				told(t, p.Message+"\nCROSSSLOT_DEBUG=1") // the editor's log asks for a report, not an environment variable
				logged = true
			}
			if m.Method == "textDocument/publishDiagnostics" && p.URI == uri && len(p.Diagnostics) > 0 {
				published = true
			}
		}
		id := c.send("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 23, "character": 30}}, true)
		c.until("an answer to a hover after the error", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
	})
	t.Run("keys", func(t *testing.T) {
		stdout, stderr, code := runIn(t, exampleDir, env, bin, "keys", "./...")
		if code != exitInternal {
			t.Errorf("exit %d, want %d\n%s%s", code, exitInternal, stdout, stderr)
		}
		told(t, stderr)
	})
}
