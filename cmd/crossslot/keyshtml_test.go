package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// keysScreenshot is the picture of the example's key graph the README
// shows; CROSSSLOT_UPDATE_GOLDEN=1 retakes it.
const keysScreenshot = "../../docs/keys-example.png"

// TestKeysHTMLInBrowser opens `crossslot keys -f html` on the example in
// headless Chromium: the page is self-contained (no script, nothing
// fetched), the browser reports no error, and the graph it renders has one
// node per family and one red edge per pair of families on different slots;
// a screenshot is taken.
func TestKeysHTMLInBrowser(t *testing.T) {
	chromium := lookChromium(t)
	page, stderr, code := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-f", "html", "./...")
	if code != 0 {
		t.Fatalf("crossslot keys -f html: exit %d\n%s", code, stderr)
	}
	if strings.Contains(page, "<script") || regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page is not self-contained: it has a script or fetches something")
	}
	jsonOut, _, _ := runIn(t, exampleDir, fixtureEnv(), crossslotBin, "keys", "-f", "json", "./...")
	var r keysReport
	if err := json.Unmarshal([]byte(jsonOut), &r); err != nil {
		t.Fatal(err)
	}
	different, self := 0, 0
	for _, f := range r.Families {
		for t, v := range f.With {
			switch {
			case v != "different":
			case t == f.Template:
				self++ // a builder's family sent with itself: one loop
			default:
				different++
			}
		}
	}
	different = different/2 + self // each pair of two families is in both
	dir := t.TempDir()
	file := filepath.Join(dir, "keys.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	browse := func(args ...string) (string, string) {
		cmd := exec.Command(chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + filepath.Join(dir, "profile"),
			"--enable-logging=stderr", "--v=0"}, args...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errOut.String())
		}
		return out.String(), errOut.String()
	}
	dom, log := browse("--dump-dom", "file://"+file)
	if strings.Contains(log, "Uncaught") || strings.Contains(log, ":CONSOLE(") {
		t.Errorf("the browser reported errors:\n%s", log)
	}
	if n := strings.Count(dom, `class="family"`); n != len(r.Families) || n == 0 {
		t.Errorf("the rendered graph has %d family nodes, want %d", n, len(r.Families))
	}
	if n := strings.Count(dom, `class="edge different"`); n != different || n == 0 {
		t.Errorf("the rendered graph has %d red edges, want %d (the pairs on different slots)", n, different)
	}
	shot := filepath.Join(dir, "keys.png")
	browse("--screenshot="+shot, "--window-size=1320,1400", "--hide-scrollbars", "file://"+file)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() < 1000 {
		t.Fatalf("screenshot: %v %v", err, img)
	}
	if os.Getenv("CROSSSLOT_UPDATE_GOLDEN") == "1" {
		data, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(keysScreenshot), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(keysScreenshot, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d families, %d red edges rendered by %s", len(r.Families), different, chromium)
}

// lookChromium finds Debian's chromium; CI must have it, elsewhere the test
// is skipped.
func lookChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: .ci/run installs Debian's chromium")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}
