package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// lspClient drives `crossslot lsp` over its pipes.
type lspClient struct {
	t   testing.TB
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func (c *lspClient) send(method string, params any, request bool) int {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if request {
		c.id++
		msg["id"] = c.id
	}
	body, _ := json.Marshal(msg)
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return c.id
}

// until reads messages until one satisfies ok.
func (c *lspClient) until(what string, ok func(protocol.Message) bool) protocol.Message {
	c.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		m, err := protocol.Read(c.out)
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(*m) {
			return *m
		}
	}
	c.t.Fatalf("no %s", what)
	return protocol.Message{}
}

// startLSP starts `crossslot lsp` in dir and initializes it; init is its
// answer.
func startLSP(t *testing.T, dir string) (c *lspClient, cmd *exec.Cmd, init protocol.Message) {
	t.Helper()
	return startLSPWith(t, dir, map[string]any{})
}

// startLSPWith starts the server for a client of the given capabilities.
func startLSPWith(t *testing.T, dir string, capabilities map[string]any) (c *lspClient, cmd *exec.Cmd, init protocol.Message) {
	t.Helper()
	return startLSPOf(t, crossslotBin, dir, capabilities)
}

// startLSPOf starts the language server of the command bin.
func startLSPOf(t *testing.T, bin, dir string, capabilities map[string]any) (c *lspClient, cmd *exec.Cmd, init protocol.Message) {
	t.Helper()
	cmd = exec.Command(bin, "lsp")
	cmd.Dir, cmd.Env = dir, fixtureEnv()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c = &lspClient{t: t, in: in, out: bufio.NewReader(out)}
	id := c.send("initialize", map[string]any{"processId": nil, "rootUri": protocol.URI(dir), "capabilities": capabilities}, true)
	init = c.until("initialize result", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
	c.send("initialized", map[string]any{}, false)
	return c, cmd, init
}

// analyzed waits for the server's log line on the analysis of dir and the
// diagnostics of file, and returns both.
func (c *lspClient) analyzed(dir, file string) (how string, messages []string) {
	c.t.Helper()
	uri := protocol.URI(file)
	gotDiags := false
	for how == "" || !gotDiags {
		m := c.until("an analysis of "+dir, func(m protocol.Message) bool {
			return m.Method == "window/logMessage" || m.Method == "textDocument/publishDiagnostics"
		})
		switch m.Method {
		case "window/logMessage":
			var p struct{ Message string }
			json.Unmarshal(m.Params, &p)
			if rest, ok := strings.CutPrefix(p.Message, "crossslot: "); ok && strings.Contains(rest, " "+dir+" in ") {
				how, _, _ = strings.Cut(rest, " "+dir)
			}
		case "textDocument/publishDiagnostics":
			var p struct {
				URI         string
				Diagnostics []struct{ Message string }
			}
			if json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
				gotDiags, messages = true, nil
				for _, d := range p.Diagnostics {
					messages = append(messages, d.Message)
				}
			}
		}
	}
	return how, messages
}

// await reads messages until the server logs that it analyzed dir as how
// says ("vetted", "loaded and analyzed", "analyzed again", "published"),
// and returns the last diagnostics of file published until then.
func (c *lspClient) await(how, dir, file string) []string {
	c.t.Helper()
	uri := protocol.URI(file)
	var messages []string
	for {
		m := c.until(how+" "+dir, func(m protocol.Message) bool {
			return m.Method == "window/logMessage" || m.Method == "textDocument/publishDiagnostics"
		})
		switch m.Method {
		case "window/logMessage":
			var p struct{ Message string }
			json.Unmarshal(m.Params, &p)
			if strings.HasPrefix(p.Message, "crossslot: "+how+" "+dir+" in ") {
				return messages
			}
		case "textDocument/publishDiagnostics":
			var p struct {
				URI         string
				Diagnostics []struct{ Message string }
			}
			if json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
				messages = []string{}
				for _, d := range p.Diagnostics {
					messages = append(messages, d.Message)
				}
			}
		}
	}
}

// awaitWhere awaits up to tries analyses of dir (see await) until the
// diagnostics published for file satisfy ok; it returns the last ones.
func (c *lspClient) awaitWhere(how, dir, file string, tries int, ok func([]string) bool) ([]string, bool) {
	c.t.Helper()
	var msgs []string
	for range tries {
		if msgs = c.await(how, dir, file); ok(msgs) {
			return msgs, true
		}
	}
	return msgs, false
}

// TestLanguageServerProgram: the first open answers with go vet, then the
// workspace's program loads in the background; a save checks the saved
// package again without loading, and a save of a package others import
// checks them too, against its new types and facts; an unsaved buffer is
// analyzed as typed; an edit on disk outside the editor is seen, with a
// watcher's notice and without; a new file loads the program again.
func TestLanguageServerProgram(t *testing.T) {
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	dir := cmdtest.CopyDir(t, exampleDir)
	c, _, init := startLSPWith(t, dir, map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}})
	if b, _ := json.Marshal(init.Result); !strings.Contains(string(b), `"change":1`) {
		t.Errorf("capabilities: %s", b)
	}
	c.until("the watchers' registration", func(m protocol.Message) bool {
		return m.Method == "client/registerCapability" && strings.Contains(string(m.Params), `"globPattern":"**/*.go"`) &&
			strings.Contains(string(m.Params), `"method":"workspace/didChangeWatchedFiles"`)
	})
	mainGo, storeGo := filepath.Join(dir, "main.go"), filepath.Join(dir, "store", "store.go")
	storeDir := filepath.Join(dir, "store")
	has := func(messages []string, part string) bool {
		for _, m := range messages {
			if strings.Contains(m, part) {
				return true
			}
		}
		return false
	}
	edit := func(file, old, new string) string {
		t.Helper()
		b, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("%s has no %q: %v", file, old, err)
		}
		text := strings.Replace(string(b), old, new, 1)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return text
	}
	open := func(file string) {
		c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(file), "languageId": "go", "version": 1, "text": ""}}, false)
	}
	save := func(file string) {
		c.send("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(file)}}, false)
	}

	open(mainGo)
	if msgs := c.await("vetted", dir, mainGo); !has(msgs, `"user:2:a" (slot 6163)`) || !has(msgs, `in store.Pair`) {
		t.Fatalf("open, go vet's answer: %q", msgs)
	}
	if msgs := c.await("loaded and analyzed", dir, mainGo); !has(msgs, `"user:2:a" (slot 6163)`) || !has(msgs, `in store.Pair`) {
		t.Fatalf("open, the program's answer: %q", msgs)
	}

	edit(mainGo, `rdb.MGet(ctx, "user:1:a", "user:2:a")`, `rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")`)
	save(mainGo)
	if msgs := c.await("analyzed again", dir, mainGo); has(msgs, `"user:2:a" (slot 6163)`) || !has(msgs, `in store.Pair`) {
		t.Fatalf("save of main.go: %q", msgs)
	}

	open(storeGo)
	c.await("published", storeDir, storeGo) // the program holds it
	edit(storeGo, `return rdb.MGet(ctx, a, b).Err()`, `return rdb.Get(ctx, a).Err()`)
	save(storeGo)
	c.await("analyzed again", storeDir, storeGo)
	if msgs := c.await("analyzed again", dir, mainGo); has(msgs, `in store.Pair`) { // main imports store
		t.Fatalf("main after the save of store.go: %q", msgs)
	}

	// A save of keys.go, which main imports: a comment carries main's facts
	// and diagnostics over; a constant's new value is main's to analyze.
	keysGo := filepath.Join(dir, "keys", "keys.go")
	edit(keysGo, "// Namespace prefixes", "// Namespace, a constant, prefixes")
	save(keysGo)
	if msgs := c.await("analyzed again", dir, mainGo); !has(msgs, `"cart:7" (slot 9546)`) || !has(msgs, `"shop:stock:1"`) {
		t.Fatalf("main after a comment in keys.go: %q", msgs)
	}
	edit(keysGo, `const Namespace = "shop:"`, `const Namespace = "{shop}:"`)
	save(keysGo)
	// The edit on disk may be seen by the file times before the save's
	// notice: main is then analyzed again twice, and the first analysis may
	// publish what it had. Wait for the analysis of the new constant (a few
	// analyses at most), not for the first.
	if msgs, ok := c.awaitWhere("analyzed again", dir, mainGo, 3, func(msgs []string) bool {
		return has(msgs, `"cart:7" (slot 9546)`) && !has(msgs, `"shop:stock:1"`)
	}); !ok {
		t.Fatalf("main after keys.Namespace changed: %q", msgs)
	}

	// Typing without saving: the buffer's text is analyzed, the file is not.
	text, _ := os.ReadFile(mainGo)
	typed := strings.Replace(string(text), `rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")`, `rdb.MGet(ctx, "typed:1", "typed:2")`, 1)
	c.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(mainGo), "version": 2},
		"contentChanges": []map[string]any{{"text": typed}}}, false)
	if msgs := c.await("analyzed again", dir, mainGo); !has(msgs, `"typed:1"`) {
		t.Fatalf("unsaved buffer: %q", msgs)
	}
	// Half-typed code keeps the last diagnostics, and loads nothing again.
	c.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(mainGo), "version": 3},
		"contentChanges": []map[string]any{{"text": typed + "\nfunc half("}}}, false)
	c.until("the half-typed buffer kept", func(m protocol.Message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "crossslot: kept a package that does not type-check")
	})
	c.send("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(mainGo)}}, false)
	if msgs := c.await("analyzed again", dir, mainGo); has(msgs, `"typed:1"`) {
		t.Fatalf("closed without saving: %q", msgs)
	}

	// An edit on disk, as a git checkout makes: with the watcher's notice,
	// and without one, seen at the next request.
	edit(storeGo, `return rdb.Get(ctx, a).Err()`, `return rdb.MGet(ctx, a, b).Err()`)
	c.send("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": protocol.URI(storeGo), "type": 2}}}, false)
	if msgs := c.await("analyzed again", dir, mainGo); !has(msgs, `in store.Pair`) {
		t.Fatalf("main after store.go changed on disk: %q", msgs)
	}
	edit(mainGo, `rdb.MGet(ctx, "user:{1}:a", "user:{1}:b")`, `rdb.MGet(ctx, "disk:1", "disk:2")`)
	open(storeGo) // any request
	if msgs := c.await("analyzed again", dir, mainGo); !has(msgs, `"disk:1"`) {
		t.Fatalf("main.go changed on disk, no notice: %q", msgs)
	}

	extra := filepath.Join(dir, "extra.go")
	if err := os.WriteFile(extra, []byte("package main\n\nfunc extra() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	save(extra)
	c.await("vetted", dir, mainGo)
	c.await("loaded and analyzed", dir, mainGo)
}

// TestLanguageServer opens the example's main.go: the server publishes its
// diagnostics and offers the co-location fix as a code action.
func TestLanguageServer(t *testing.T) {
	dir, err := filepath.Abs(exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	c, cmd, init := startLSP(t, dir)
	if b, _ := json.Marshal(init.Result); !strings.Contains(string(b), `"codeActionProvider":true`) {
		t.Errorf("capabilities: %s", b)
	}
	uri := protocol.URI(filepath.Join(dir, "main.go"))
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}}, false)

	type diagnostic struct {
		Range    protocol.Range
		Severity int
		Source   string
		Code     string
		Message  string
	}
	var diags []diagnostic
	c.until("main.go's diagnostics", func(m protocol.Message) bool {
		var p struct {
			URI         string
			Diagnostics []diagnostic
		}
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || p.URI != uri {
			return false
		}
		diags = p.Diagnostics
		return true
	})
	want := `MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot`
	found := false
	for _, d := range diags {
		if d.Message == want && d.Range.Start.Line == 23 && d.Source == "crossslot" && d.Code == "crossslot" && d.Severity == 1 {
			found = true
		}
	}
	if !found || len(diags) < 20 {
		t.Fatalf("%d diagnostics, none %q at line 24: %+v", len(diags), want, diags)
	}

	// The fix of badProfileAndSettings's literal keys, as a code action.
	line := -1
	for _, d := range diags {
		if strings.Contains(d.Message, `"user:1:profile"`) {
			line = d.Range.Start.Line
		}
	}
	id := c.send("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line, Character: 80}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, true)
	actions := c.until("code actions", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
	if b, _ := json.Marshal(actions.Result); !strings.Contains(string(b), `"newText":"\"{user:1}:profile\""`) || !strings.Contains(string(b), `"kind":"quickfix"`) {
		t.Errorf("code actions at line %d: %s", line+1, b)
	}
	c.send("shutdown", nil, true)
	c.send("exit", nil, false)
	c.in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the server did not exit cleanly: %v", err)
	}
}

// neovimHarness waits for the first buffer's diagnostics, writes them to
// $CROSSSLOT_DIAGNOSTICS and quits; the snippet of docs/editors.md, run
// before it, starts crossslot's language server for Go buffers.
const neovimHarness = `
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(120000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
  local f = io.open(os.getenv("CROSSSLOT_DIAGNOSTICS"), "w")
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    f:write(string.format("%d:%d\t%s\t%s\n", d.lnum + 1, d.col + 1, d.source or "", d.message))
  end
  f:close()
  vim.cmd("qa!")
end })
`

// readmeRecipe returns the code block the README, or one of its pages in
// docs/, marks with <!-- recipe: name -->, unindented.
func readmeRecipe(t testing.TB, name string) string {
	t.Helper()
	return cmdtest.ReadmeRecipe(t, "../../README.md", name)
}

// lookNeovim finds nvim; CI must have it, elsewhere the test is skipped.
func lookNeovim(t *testing.T) string {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim is not installed: .ci/run installs Debian's neovim")
		}
		t.Skip("nvim is not installed (apt-get install neovim)")
	}
	return nvim
}

// neovimVersion is the installed Neovim's minor version (0.7 is 7).
func neovimVersion(t *testing.T, nvim string) int {
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	var major, minor int
	fmt.Sscanf(string(out), "NVIM v%d.%d", &major, &minor)
	return major*100 + minor
}

// TestNeovim opens a file of the example in a real editor, headless Neovim
// with its built-in LSP client set up by the snippet of docs/editors.md for
// its version, and reads the diagnostics it received. The 0.8 snippet runs where
// Neovim is 0.8 or later; on 0.7 it is only parsed.
func TestNeovim(t *testing.T) {
	nvim := lookNeovim(t)
	version := neovimVersion(t, nvim)
	for _, recipe := range []string{"neovim-0.7", "neovim-0.8"} {
		t.Run(recipe, func(t *testing.T) {
			snippet := readmeRecipe(t, recipe)
			if recipe == "neovim-0.8" && version < 8 {
				parsed := filepath.Join(t.TempDir(), "snippet.lua")
				os.WriteFile(parsed, []byte(snippet), 0o644)
				out, err := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE",
					"-c", "lua assert(loadfile('"+parsed+"'))", "-c", "qa!").CombinedOutput()
				if err != nil || len(out) > 0 {
					t.Fatalf("the 0.8 snippet does not parse: %v\n%s", err, out)
				}
				t.Logf("Neovim 0.%d: the 0.8 snippet parses; it runs where Neovim is 0.8 or later", version)
				return
			}
			runNeovim(t, nvim, "vim.cmd(\"filetype on\")\n"+snippet+neovimHarness)
		})
	}
}

// neovimTyping waits for the buffer's first diagnostics, then types a line
// (the buffer is not saved) and waits for its diagnostic; it writes what it
// received to $CROSSSLOT_DIAGNOSTICS and quits.
const neovimTyping = `
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(120000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
  vim.api.nvim_buf_set_lines(buf, 23, 23, false, { '\trdb.MGet(ctx, "typed:1", "typed:2")' })
  local typed = function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message:find("typed:1", 1, true) then return true end
    end
    return false
  end
  vim.wait(60000, typed, 50)
  local f = io.open(os.getenv("CROSSSLOT_DIAGNOSTICS"), "w")
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    f:write(string.format("%d:%d\t%s\t%s\n", d.lnum + 1, d.col + 1, d.source or "", d.message))
  end
  f:close()
  vim.cmd("qa!")
end })
`

// TestNeovimTyping types a cross-slot call in Neovim without saving: the
// server analyzes the unsaved buffer, and the file on disk is unchanged.
func TestNeovimTyping(t *testing.T) {
	nvim := lookNeovim(t)
	dir := cmdtest.CopyDir(t, exampleDir)
	before, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	got := runNeovimIn(t, nvim, dir, "vim.cmd(\"filetype on\")\n"+readmeRecipe(t, "neovim-0.7")+neovimTyping)
	want := regexp.MustCompile(`(?m)^24:\d+\tcrossslot\tMGet keys "typed:1" \(slot \d+\) and "typed:2"`)
	if !want.MatchString(got) {
		t.Errorf("Neovim received:\n%s\nwant a line matching %s", got, want)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(after) != string(before) {
		t.Errorf("main.go changed on disk")
	}
}

func runNeovim(t *testing.T, nvim, initLua string) {
	dir, err := filepath.Abs(exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	b := runNeovimIn(t, nvim, dir, initLua)
	want := "24:35\tcrossslot\tMGet keys \"user:1:a\" (slot 323) and \"user:2:a\" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot"
	if !strings.Contains(b, want+"\n") {
		t.Errorf("Neovim received:\n%s\nwant a line %q", b, want)
	}
	t.Logf("Neovim received %d diagnostics from crossslot lsp", strings.Count(b, "\n"))
}

// runNeovimIn runs headless Neovim on dir's main.go with the init script,
// and returns what the script wrote to $CROSSSLOT_DIAGNOSTICS.
func runNeovimIn(t *testing.T, nvim, dir, initLua string) string {
	tmp := t.TempDir()
	init, got := filepath.Join(tmp, "init.lua"), filepath.Join(tmp, "diagnostics.txt")
	if err := os.WriteFile(init, []byte(initLua), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "-u", init, "-i", "NONE", "main.go")
	cmd.Dir = dir
	// The snippet runs "crossslot" from PATH, as a user's would.
	cmd.Env = append(fixtureEnv(), "PATH="+filepath.Dir(crossslotBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CROSSSLOT_DIAGNOSTICS="+got, "XDG_STATE_HOME="+tmp, "XDG_DATA_HOME="+tmp)
	done := make(chan error, 1)
	go func() { _, err := cmd.CombinedOutput(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("nvim: %v", err)
		}
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("nvim did not finish")
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLanguageServerFixInBuilder: the fix of a finding whose keys come
// from key builders in another file of the package edits that file.
func TestLanguageServerFixInBuilder(t *testing.T) {
	dir, err := filepath.Abs(cliDir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, _ := startLSP(t, dir)
	file := filepath.Join(dir, "builders", "orders.go")
	uri := protocol.URI(file)
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}}, false)
	if _, messages := c.analyzed(filepath.Join(dir, "builders"), file); len(messages) != 1 {
		t.Fatalf("orders.go's diagnostics: %q", messages)
	}
	id := c.send("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        protocol.Range{Start: protocol.Position{Line: 9}, End: protocol.Position{Line: 9, Character: 80}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, true)
	actions := c.until("code actions", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
	var result []struct {
		Title string
		Edit  struct {
			Changes map[string][]protocol.TextEdit
		}
	}
	b, _ := json.Marshal(actions.Result)
	if err := json.Unmarshal(b, &result); err != nil || len(result) != 1 {
		t.Fatalf("code actions: %s", b)
	}
	keys := protocol.URI(filepath.Join(dir, "builders", "keys.go"))
	if edits := result[0].Edit.Changes[keys]; len(edits) != 4 || len(result[0].Edit.Changes) != 1 {
		t.Errorf("the fix %q edits %s, want 4 edits in keys.go only", result[0].Title, b)
	}
}

// TestLanguageServerHover: a hover over a key expression shows its
// template, tag and slot, and the keys it is sent with; elsewhere none.
func TestLanguageServerHover(t *testing.T) {
	dir, err := filepath.Abs(exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, init := startLSP(t, dir)
	if b, _ := json.Marshal(init.Result); !strings.Contains(string(b), `"hoverProvider":true`) {
		t.Fatalf("initialize: no hoverProvider: %s", b)
	}
	file := filepath.Join(dir, "main.go")
	uri := protocol.URI(file)
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}}, false)
	// The first answer comes from go vet; hovers read the program, which
	// loads in the background.
	if how, _ := c.analyzed(dir, file); how == "vetted" {
		c.await("loaded and analyzed", dir, file)
	}
	hover := func(line, char int) string {
		id := c.send("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": protocol.Position{Line: line, Character: char}}, true)
		m := c.until("hover", func(m protocol.Message) bool { return string(m.ID) == fmt.Sprint(id) })
		b, _ := json.Marshal(m.Result)
		return string(b)
	}
	// main.go:24:23 is "user:1:a" in rdb.MGet(ctx, "user:1:a", "user:2:a");
	// main.go:97:23 is "user:{"+id+"}:a".
	for _, tc := range []struct {
		line, char int
		want       string
	}{
		{23, 25, "**key** `user:1:a`\\n\\nno hash tag: slot 323\\n\\nsent by MGet with `user:2:a` (different slots, as the crossslot check finds)"},
		{96, 24, "**key** `user:{\\u003cid\\u003e}:a`\\n\\nhash tag `{\\u003cid\\u003e}`: the slot depends on its values\\n\\nsent by MGet with `user:{\\u003cid\\u003e}:b` (one slot)"},
		{0, 0, "null"},
	} {
		if got := hover(tc.line, tc.char); !strings.Contains(got, tc.want) {
			t.Errorf("hover at %d:%d: %s\nwant it to contain %s", tc.line+1, tc.char+1, got, tc.want)
		}
	}
}
