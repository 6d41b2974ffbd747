package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// keysScreenshot is the picture of the example's key map the README shows;
// CROSSSLOT_UPDATE_GOLDEN=1 retakes it.
const keysScreenshot = "../../docs/keys-example.png"

// TestKeysHTMLInBrowser opens `crossslot keys -f html` on the example in
// headless Chromium: the page is self-contained (no script, nothing
// fetched), the browser reports no error, and it renders one row per family
// and one red badge per family sent with another on a different slot; a
// screenshot is taken.
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
	different := 0
	for _, f := range r.Families {
		for _, v := range f.With {
			if v == "different" {
				different++ // a badge in each of the two families' rows
			}
		}
	}
	b := newBrowser(t, chromium)
	dom := b.render(page, false)
	if n := strings.Count(dom, `class="family"`); n != len(r.Families) || n == 0 {
		t.Errorf("the page has %d family rows, want %d", n, len(r.Families))
	}
	if n := strings.Count(dom, `class="with different"`); n != different || n == 0 {
		t.Errorf("the page has %d red badges, want %d (the families sent with one on another slot)", n, different)
	}
	shot := b.screenshot(page, 1320, 1400)
	if os.Getenv("CROSSSLOT_UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(keysScreenshot), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(keysScreenshot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d families, %d red badges rendered by %s", len(r.Families), different, chromium)
}

// TestKeysHTMLTwoHundredFamilies renders the key map of 200 families (a
// generated report: 40 tagged groups of 3, 80 untagged families with long
// templates, sent in pairs) in headless Chromium, measured by a script the
// test adds to its copy of the page: no element's content is clipped (wider
// or taller than its box), and every family has its row, reachable by its
// anchor; with a live read's figures on each, its slot strip and long
// names in its live section.
func TestKeysHTMLTwoHundredFamilies(t *testing.T) {
	chromium := lookChromium(t)
	var families []*keyFamily
	slot := 100
	for g := range 40 {
		for i := range 3 {
			families = append(families, &keyFamily{Template: fmt.Sprintf("tenant:{t%02d}:entity%d:%s", g, i, strings.Repeat("x", g%7*6)),
				TagKind: "constant", Tag: fmt.Sprintf("t%02d", g), Group: fmt.Sprintf("{t%02d}", g), Slot: &slot,
				Built: []string{fmt.Sprintf("svc/p%02d.go:%d:5", g, i+10)}, Uses: []string{fmt.Sprintf("MGet svc/p%02d.go:%d:2", g, i+10)}})
		}
	}
	for i := range 80 {
		families = append(families, &keyFamily{Template: fmt.Sprintf("legacy:service%02d:<userIdentifierFromTheRequest>:%s:cache", i, strings.Repeat("segment", i%5+1)),
			TagKind: "none", Built: []string{fmt.Sprintf("legacy/l%02d.go:1:1", i)}, Uses: []string{fmt.Sprintf("Del legacy/l%02d.go:1:1", i)}})
	}
	for i := 120; i+1 < len(families); i += 2 {
		a, b := families[i], families[i+1]
		a.With, b.With = map[string]string{b.Template: "different"}, map[string]string{a.Template: "different"}
	}
	// live figures on every family, and a live section with long names
	size := int64(123456789)
	for i, f := range families {
		f.Live = &liveFigures{Keys: int64(1000 * i), KeysError: int64(30 * i), Bytes: &size, BytesError: 99999, Measured: 200, NoTTL: 0.5,
			Slots: 16384, Nodes: 3, NodeKeys: []int64{1, 2, 3}, TopSlot: 16383, TopSlotKeys: 99999, TopSlotShare: 0.01}
	}
	lr := &liveReport{URL: "rediss://app:xxxxx@cache-cluster-0001.production.internal.example.com:6380", Server: "valkey 8.1.1", Cluster: true,
		Keys: 123456789, Read: 1000000, Method: "more than -live-budget 1000000: a uniform sample of 1000000 (RANDOMKEY, each node its share), scaled to each node's DBSIZE",
		Old:     []*liveOld{{Template: strings.Repeat("legacy:service:", 12) + "<id>", Family: families[0].Template, liveFigures: *families[0].Live}},
		Foreign: liveForeign{liveFigures: liveFigures{Keys: 5}, Prefixes: []livePrefix{{Prefix: strings.Repeat("averyveryverylongprefixwithoutanycolon", 4), Keys: 5}}},
		Unread:  []string{"node 10.0.0.12:6379 (slots 0-5460): " + strings.Repeat("connection reset by peer; ", 8)}}
	for s := 0; s < 16384; s += 7 {
		lr.SlotKeys = append(lr.SlotKeys, [2]int64{int64(s), int64(s % 1000)})
	}
	for s := range 5 {
		lr.HotSlots = append(lr.HotSlots, liveSlot{Slot: 16000 + s, Node: "10.0.0.13:6379", Keys: 999,
			Families: []livePrefix{{Prefix: families[120].Template, Keys: 500}, {Prefix: families[121].Template, Keys: 499}}})
	}
	var page bytes.Buffer
	writeKeysHTML(&page, families, lr)
	b := newBrowser(t, chromium)
	dom := b.render(page.String(), true)
	if n := strings.Count(dom, `class="family"`); n != 200 {
		t.Errorf("the page has %d family rows, want 200", n)
	}
	if n, m := strings.Count(dom, `class="livefig"`), strings.Count(dom, `<i style="opacity:`); n != 200 || m != heatCells {
		t.Errorf("the page has %d families' live figures and %d cells of the slot strip, want 200 and %d", n, m, heatCells)
	}
	for i, f := range families {
		if !strings.Contains(dom, fmt.Sprintf(`id="f%d"><code>%s</code>`, i, strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(f.Template))) {
			t.Errorf("family %d (%s) has no row of its own", i, f.Template)
		}
	}
	if m := regexp.MustCompile(`data-clipped="([^"]*)"`).FindStringSubmatch(dom); m == nil {
		t.Error("the measuring script did not run")
	} else if m[1] != "" {
		t.Errorf("clipped elements: %s", m[1])
	}
	t.Logf("200 families rendered by %s, nothing clipped (%d KiB of page)", chromium, page.Len()/1024)
}

// A browser renders pages in headless Chromium.
type browser struct {
	t        *testing.T
	chromium string
	dir      string
}

func newBrowser(t *testing.T, chromium string) *browser {
	return &browser{t: t, chromium: chromium, dir: t.TempDir()}
}

func (b *browser) run(args ...string) (string, string) {
	cmd := exec.Command(b.chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + filepath.Join(b.dir, "profile"),
		"--enable-logging=stderr", "--v=0"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		b.t.Fatalf("chromium %v: %v\n%s", args, err, errOut.String())
	}
	return out.String(), errOut.String()
}

// render loads the page and returns its DOM; with measure, the test's copy
// gets a script that lists, in body's data-clipped, every element whose
// content is wider or taller than its box.
func (b *browser) render(page string, measure bool) string {
	if measure {
		page = strings.Replace(page, "</body>", `<script>
var clipped = [];
document.querySelectorAll("body *").forEach(function (e) {
  if (e.tagName === "SCRIPT" || e.tagName === "DETAILS" || e.tagName === "SUMMARY") return;
  if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflow !== "visible") {
    if (e.clientWidth > 0) clipped.push(e.tagName + "." + e.className + ":" + (e.textContent || "").slice(0, 40));
  }
});
document.body.setAttribute("data-clipped", clipped.slice(0, 5).join(" | "));
</script></body>`, 1)
	}
	file := filepath.Join(b.dir, "keys.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		b.t.Fatal(err)
	}
	dom, log := b.run("--window-size=1320,1400", "--virtual-time-budget=2000", "--dump-dom", "file://"+file)
	if strings.Contains(log, "Uncaught") || strings.Contains(log, ":CONSOLE(") && !measure {
		b.t.Errorf("the browser reported errors:\n%s", log)
	}
	return dom
}

// screenshot renders the page at a window size and returns the PNG.
func (b *browser) screenshot(page string, width, height int) []byte {
	file := filepath.Join(b.dir, "shot.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		b.t.Fatal(err)
	}
	shot := filepath.Join(b.dir, "keys.png")
	b.run(fmt.Sprintf("--screenshot=%s", shot), fmt.Sprintf("--window-size=%d,%d", width, height), "--hide-scrollbars", "file://"+file)
	data, err := os.ReadFile(shot)
	if err != nil {
		b.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() < 1000 {
		b.t.Fatalf("screenshot: %v", err)
	}
	return data
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
