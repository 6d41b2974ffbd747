package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// TestWiring: a package under internal/ given its client by a constructor
// has its cluster findings judged where main wires the client, by go vet
// (each package in a process of its own, through facts) and by the
// standalone command alike: reported at the command when the client may be
// a cluster's, through a package that passes it on, with the wiring call
// as a related position; silent when main gives a standalone server's
// client. A finding that holds while an option stays at its default is
// judged by the options the program sets: silent when main sets the
// exported field, reported when it leaves the options struct it passes at
// its defaults. Keys under a prefix the constructor is given are judged
// with the prefix main gives (or the field of the configuration it gives):
// reported when it is text without a tag, silent when it is a tag or not
// known. A finding in the world of one writer of a
// field (the constructor's namespace) is dropped when the program calls
// another writer (a setter that tags it). A malformed tag is reported where it is, and a directive where
// the command is silences it wherever it is judged. A redigo connection of a
// pool is judged by the pool main gives: silent when redigo's Dial dials it
// (one server), reported when redisc does. A SORT pattern under a prefix
// the constructor is given, or a field of its options, is judged as keys
// are: reported where main gives text without a tag, silent where it gives
// a tag, or where the constructor writes that option itself. A package outside internal/
// keeps its findings where they are. A database the constructor is given
// (SELECT of a field, COPY ... DB of an options field) is reported where
// main gives one other than 0, silent where it gives 0 or a number it reads.
func TestWiring(t *testing.T) {
	var want []string
	for _, dir := range []string{"internal/store", "internal/service", "internal/localcache", "internal/tiers", "internal/queue", "internal/rewards", "internal/flagstore", "internal/names", "internal/boards", "internal/tagboards", "internal/heatmap", "internal/ranks", "internal/tagranks", "internal/optranks", "internal/defranks", "internal/prefranks", "internal/databases", "lib", "cmd/app"} {
		want = append(want, markedLines(t, filepath.Join("wiring", dir), "reported")...)
	}
	slices.Sort(want)
	if len(want) < 4 {
		t.Fatalf("only %d marked lines in the fixture", len(want))
	}
	if got := lintJSON(t, "./wiring/..."); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("crossslot reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	var got []string
	wiredAt, prefixAt := 0, 0
	for _, byAnalyzer := range vetJSON(t, cliDir, []string{"./wiring/..."}) {
		for _, d := range byAnalyzer["crossslot"] {
			file, line := posnFileLine(t, d.Posn)
			got = append(got, fmt.Sprintf("%s:%d: %s", file, line, d.Category))
			for _, r := range d.Related {
				if !strings.Contains(r.Posn, filepath.Join("cmd", "app", "main.go")) {
					continue
				}
				if strings.Contains(r.Message, "its client is given here, to service.New") {
					wiredAt++
				}
				if strings.Contains(r.Message, `its keys' leading values are given here, to rewards.New, as "rw"`) {
					prefixAt++
				}
			}
		}
	}
	if prefixAt != 2 {
		t.Errorf("go vet named the prefix main gives beside %d findings, want 2", prefixAt)
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("go vet reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if wiredAt != 2 {
		t.Errorf("go vet named the wiring call in main beside %d findings, want 2", wiredAt)
	}
}

// posnFileLine splits go vet's "file:line:col" into the file's base name and
// the line.
func posnFileLine(t *testing.T, posn string) (string, int) {
	t.Helper()
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		t.Fatalf("bad position %q", posn)
	}
	line, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		t.Fatalf("bad position %q", posn)
	}
	return filepath.Base(strings.Join(parts[:len(parts)-2], ":")), line
}

// TestLanguageServerWiring: in the editor, the store's finding on the
// client main gives it appears in the store's file once the workspace's
// program is loaded, and the local cache's, whose client main makes for
// one server, never does.
func TestLanguageServerWiring(t *testing.T) {
	dir, err := filepath.Abs(cliDir)
	if err != nil {
		t.Fatal(err)
	}
	c, _, _ := startLSP(t, dir)
	file := filepath.Join(dir, "wiring", "internal", "store", "store.go")
	c.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": protocol.URI(file), "languageId": "go", "version": 1, "text": ""}}, false)
	hasMGet := func(msgs []string) bool {
		return slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, `MGet keys "user:1:profile"`) })
	}
	if msgs, ok := c.awaitWhere("loaded and analyzed", filepath.Dir(file), file, 1, hasMGet); !ok {
		t.Errorf("store.go's diagnostics after the program loaded: %q", msgs)
	}
}

// TestWiringByModuleMain: a package outside internal/ that a main package
// of its module imports is wired there (its findings wait for main, which
// gives it a standalone server's client here); one that only a tool built
// with a tag imports keeps its findings where its commands are.
func TestWiringByModuleMain(t *testing.T) {
	dir := "../../testdata/wiringmod"
	var want []string
	for _, sub := range []string{"cache", "unwired"} {
		want = append(want, markedLinesIn(t, filepath.Join(dir, sub), "reported")...)
	}
	slices.Sort(want)
	var got []string
	for _, byAnalyzer := range vetJSON(t, dir, []string{"./..."}) {
		for _, d := range byAnalyzer["crossslot"] {
			file, line := posnFileLine(t, d.Posn)
			got = append(got, fmt.Sprintf("%s:%d: %s", file, line, d.Category))
		}
	}
	slices.Sort(got)
	if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("go vet reported:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
