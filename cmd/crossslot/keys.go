package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/live"
	"github.com/crossslot/crossslot/slotcalc"
)

// keysSchema names the version of `crossslot keys -f json`'s document.
const keysSchema = "crossslot.keys/v1"

// A keyFamily is every key one template builds (user:{<id>}:profile): where
// the code writes it, the commands and transactions that send it, and the
// families each of those sends it with.
type keyFamily struct {
	Template string `json:"template"`
	// Builder is the key builder that makes the family's keys, with its
	// place (see analyzer.KeyRef.Builder): its result is the template.
	Builder string `json:"builder,omitempty"`
	// TagKind is "constant", "value", "none", "empty" or "unknown" (see
	// analyzer.KeyRef); Group is the co-location group: "{" + the tag's
	// template + "}" for a tagged family, "" for the others.
	TagKind string   `json:"tag_kind"`
	Tag     string   `json:"tag,omitempty"`
	Group   string   `json:"group,omitempty"`
	Slot    *int     `json:"slot,omitempty"`
	Built   []string `json:"built"` // file:line:column of each place the key is written
	Uses    []string `json:"uses"`  // "MGet main.go:24:17"
	// With are the families sent in one command or transaction with this
	// one, and whether they share its slot: "one", "different" (a
	// crossslot finding), "split" (the client or proxy splits it),
	// "unknown"; the worst verdict of their uses.
	With map[string]string `json:"with,omitempty"`
	// Live is what -live read of the family on a running server.
	Live *liveFigures `json:"live,omitempty"`
}

// A keysReport is `crossslot keys -f json`'s document.
type keysReport struct {
	Schema   string       `json:"schema"`
	Families []*keyFamily `json:"families"`
	// OldName is, with -key, the old name of a family the key is under,
	// as -live counts it; its family is then among Families.
	OldName *keyOldName `json:"old_name,omitempty"`
	Live    *liveReport `json:"live,omitempty"`
}

// A keyOldName says that -key's key is under a family's old name.
type keyOldName struct {
	Key      string `json:"key"`
	Template string `json:"template"` // the old name: user:<id>:profile
	Family   string `json:"family"`   // the family it became: user:{<id>}:profile
	// Untagged says the old name is the family's template without its
	// tag's braces; else -live-old gave it.
	Untagged bool `json:"untagged,omitempty"`
}

// keysCommand lists the key families of packages.
//
//	crossslot keys [-f text|md|json|html] [-slot N] [-key TEXT] [packages]
func keysCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("crossslot keys", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("f", "text", "output `format`: text, md (Markdown, for a migration document), json, or html (one self-contained page with the families as a graph)")
	slotFlag := fs.String("slot", "", "list only the families whose keys can land on hash `slot` N (0 to 16383)")
	key := fs.String("key", "", "list only the families a concrete `key` (from a log, --hotkeys) matches, or whose old name (untagged, or -live-old's) it is under")
	var lo liveOptions
	fs.StringVar(&lo.url, "live", "", "join the families with a running server's or cluster's keys, read-only: a `URL` redis://[user:password@]host:port[/db], rediss:// (TLS), valkey://, valkeys://")
	fs.IntVar(&lo.budget, "live-budget", 1_000_000, "read at most `N` key names; past it, a uniform sample of N, and the figures scaled with their error")
	fs.IntVar(&lo.measure, "live-measure", 200, "measure TYPE, PTTL and MEMORY USAGE of at most `N` keys per family and node")
	fs.DurationVar(&lo.timeout, "live-timeout", 5*time.Minute, "stop reading after `duration`, and report what was read")
	fs.DurationVar(&lo.pause, "live-pause", time.Millisecond, "pause `duration` between two batches of commands on one node")
	fs.BoolVar(&lo.replicas, "live-replicas", false, "read each shard's replica instead of its master (READONLY)")
	fs.Var(&lo.olds, "live-old", "count keys under an old name `OLD=FAMILY` as that family's (profile:<id>=user:{<id>}:profile); repeatable. A tagged family's untagged name is counted without it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: crossslot keys [-f text|md|json|html] [-slot N] [-key TEXT] [-live URL [-live-budget N] ...] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	switch *format {
	case "text", "md", "json", "html":
	default:
		fmt.Fprintf(stderr, "crossslot keys: -f %q: the formats are text, md, json and html\n", *format)
		return exitUsage
	}
	slot := -1
	if *slotFlag != "" {
		n, err := strconv.Atoi(*slotFlag)
		if err != nil || n < 0 || n >= slotcalc.SlotCount {
			fmt.Fprintf(stderr, "crossslot keys: -slot %q: a slot is a number from 0 to %d\n", *slotFlag, slotcalc.SlotCount-1)
			return exitUsage
		}
		slot = n
	}
	if lo.url != "" {
		if err := lo.check(); err != nil {
			fmt.Fprintln(stderr, "crossslot keys:", err)
			return exitUsage
		}
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	if _, err := listModules(pkgs); err != nil {
		fmt.Fprintln(stderr, "crossslot keys:", err)
		return exitUsage
	}
	uses, err := analyzeForKeys(pkgs, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "crossslot keys:", err)
		return exitCode(err)
	}
	families := keyFamilies(uses)
	var lr *liveReport
	if f := lo.olds.resolve(families); f != "" {
		fmt.Fprintf(stderr, "crossslot keys: -live-old: %q is not a key family of these packages (crossslot keys lists them)\n", f)
		return exitUsage
	}
	if lo.url != "" {
		// every family is matched, whatever -slot and -key then show
		if lr, err = readLive(families, lo); err != nil {
			fmt.Fprintln(stderr, "crossslot keys: -live:", err)
			return exitLive
		}
	}
	var oldName *keyOldName
	switch {
	case slot >= 0:
		families = onSlot(families, slot)
	case *key != "":
		oldName = underOldName(families, lo.olds, *key)
		families = matching(families, *key, oldName)
	}
	switch *format {
	case "md":
		writeKeysMarkdown(stdout, families)
		if lr != nil {
			writeLiveMarkdown(stdout, lr, families)
		}
	case "html":
		writeKeysHTML(stdout, families, lr)
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(keysReport{Schema: keysSchema, Families: families, OldName: oldName, Live: lr}); err != nil {
			fmt.Fprintln(stderr, "crossslot keys:", err)
			return 1
		}
	default:
		if lr != nil {
			writeLiveText(stdout, lr, families)
		} else {
			writeKeysText(stdout, families, slot, *key, oldName)
		}
	}
	if lr != nil && len(lr.Unread) > 0 {
		for _, u := range lr.Unread {
			fmt.Fprintln(stderr, "crossslot keys: -live: not read:", u)
		}
		return exitLive
	}
	return 0
}

// check refuses -live flags that cannot read anything.
func (o liveOptions) check() error {
	switch {
	case o.budget <= 0:
		return fmt.Errorf("-live-budget %d: the budget is the most key names read, a number above 0", o.budget)
	case o.measure < 0:
		return fmt.Errorf("-live-measure %d: a number of keys, 0 or more", o.measure)
	case o.timeout <= 0:
		return fmt.Errorf("-live-timeout %v: a duration above 0", o.timeout)
	case o.pause < 0:
		return fmt.Errorf("-live-pause %v: a duration, 0 or more", o.pause)
	}
	_, err := live.ParseURL(o.url)
	return err
}

// analyzeForKeys runs the standalone analysis with -crossslot.inventory and
// reads what each package recorded. A package that could not be analyzed
// fails it, with the compiler's message.
func analyzeForKeys(pkgs []string, stderr io.Writer) ([]analyzer.KeyUse, error) {
	dir, err := os.MkdirTemp("", "crossslot-keys")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "inventory.jsonl")
	_, notAnalyzed, err := analyzePackages(append([]string{"-crossslot.inventory=" + file}, pkgs...))
	if err != nil {
		return nil, err
	}
	if len(notAnalyzed) > 0 {
		for _, f := range notAnalyzed {
			fmt.Fprintln(stderr, located(f.Pos, strings.TrimSpace(f.Message)))
		}
		return nil, &exitError{notAnalyzedExit(notAnalyzed), errors.New("some packages could not be analyzed")}
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil // no package sends keys
	}
	if err != nil {
		return nil, err
	}
	var uses []analyzer.KeyUse
	err = readInventory(data, func(inv analyzer.Inventory) { uses = append(uses, inv.Uses...) })
	return uses, err
}

// readInventory reads an inventory file (-crossslot.inventory): one
// package's Inventory a line.
func readInventory(data []byte, each func(analyzer.Inventory)) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var inv analyzer.Inventory
		if err := json.Unmarshal(sc.Bytes(), &inv); err != nil {
			return fmt.Errorf("reading the key inventory: %v", err)
		}
		each(inv)
	}
	return sc.Err()
}

// keyFamilies groups the uses' keys by template, sorted by group then
// template. A family is the keys its template names, whatever the values
// are called: "acct:"+from and "acct:"+to, or acctKey(id) beside them, are
// one family (see familyShape), as a live key cannot tell them apart.
func keyFamilies(uses []analyzer.KeyUse) []*keyFamily {
	byShape := map[string]*keyFamily{}
	names := map[string][]string{}    // by shape: the templates its keys are written as
	builders := map[string][]string{} // by shape: the key builders that make them
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	for _, u := range uses {
		for _, k := range u.Keys {
			template := familyOf(k)
			id := familyShape(template)
			f := byShape[id]
			if f == nil {
				f = &keyFamily{Template: template, TagKind: k.TagKind, Tag: k.Tag, Slot: k.Slot, With: map[string]string{}}
				if k.BuilderTemplate != "" {
					f.TagKind, f.Tag = templateTag(template)
				}
				byShape[id] = f
			} else if f.Slot != nil && (k.Slot == nil || *k.Slot != *f.Slot) {
				f.Slot = nil // a builder's keys on several slots
			}
			if k.BuilderTemplate == "" && k.TagKind == "unknown" && f.TagKind == "none" {
				// one of its keys written in place may start with a value's
				// brace (a builder's family is read from its template)
				f.TagKind = "unknown"
			}
			if !slices.Contains(names[id], template) {
				names[id] = append(names[id], template)
			}
			if k.Builder != "" && !slices.Contains(builders[id], k.Builder) {
				builders[id] = append(builders[id], k.Builder)
			}
			if k.Script != "" {
				add(&f.Built, id+"\x00"+"the script's "+k.Script+" ("+u.Command+" "+u.At+")") // a key its Lua builds
			} else {
				add(&f.Built, id+"\x00"+k.At)
			}
			add(&f.Uses, id+"\x00"+u.Command+" "+u.At)
		}
		for _, p := range u.Pairs {
			a, b := familyShape(familyOf(u.Keys[p.A])), familyShape(familyOf(u.Keys[p.B]))
			if a != b || u.Keys[p.A].Template != u.Keys[p.B].Template {
				// two families, or two keys of one (itemKey(1) and
				// itemKey(2), "acct:"+from and "acct:"+to): the family is
				// sent with itself
				byShape[a].With[b] = analyzer.WorseSlots(byShape[a].With[b], p.Slots)
				byShape[b].With[a] = analyzer.WorseSlots(byShape[b].With[a], p.Slots)
			}
		}
	}
	for id, f := range byShape {
		f.Builder = strings.Join(builders[id], ", ")
		if len(names[id]) > 1 {
			f.Template = familyName(names[id])
			if f.TagKind == "constant" || f.TagKind == "value" {
				_, f.Tag = templateTag(f.Template)
			}
		}
		if f.TagKind == "constant" || f.TagKind == "value" {
			f.Group = "{" + f.Tag + "}"
		}
	}
	var out []*keyFamily
	for _, f := range byShape {
		for i := range f.Built {
			_, f.Built[i], _ = strings.Cut(f.Built[i], "\x00")
		}
		for i := range f.Uses {
			_, f.Uses[i], _ = strings.Cut(f.Uses[i], "\x00")
		}
		with := map[string]string{}
		for id, v := range f.With {
			with[byShape[id].Template] = v
		}
		f.With = with
		if len(f.With) == 0 {
			f.With = nil
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Group == "") != (out[j].Group == "") {
			return out[i].Group != ""
		}
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Template < out[j].Template
	})
	return out
}

// familyOf is the template a key is written as: its builder's when a key
// builder makes it (every call of profileKey, whatever its argument is
// called), else its own.
func familyOf(k analyzer.KeyRef) string {
	if k.BuilderTemplate != "" {
		return k.BuilderTemplate
	}
	return k.Template
}

// anyValue is a value of a family whose keys name it differently
// (acct:<from>, acct:<to>): the family's template shows it as <…>.
const anyValue = "<…>"

// valueRun is a run of values side by side in a template (<id>, <a><b>):
// any text, as a key read from a server shows.
var valueRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:<[^<>]*>)+`) })

// familyShape is a template as the keys it names: its fixed text, with
// each run of values one anyValue. Templates of one shape name the same
// keys, whatever their values are called.
func familyShape(template string) string {
	return valueRun().ReplaceAllString(template, anyValue)
}

// familyName names a family whose keys are written as templates of one
// shape: each value as the templates name it where they agree, else as
// anyValue (acct:<from> and acct:<to> are acct:<…>).
func familyName(templates []string) string {
	runs := make([][]string, len(templates))
	for i, t := range templates {
		runs[i] = valueRun().FindAllString(t, -1)
	}
	n := 0
	return valueRun().ReplaceAllStringFunc(templates[0], func(first string) string {
		i := n
		n++
		for _, r := range runs[1:] {
			if i >= len(r) || r[i] != first {
				return anyValue
			}
		}
		return first
	})
}

// templateTag reads a builder's template for its hash tag, as the server
// reads a key's: "value" when the tag holds a parameter (<id>),
// "constant" when it is text, "empty" for {}, "none" without one.
func templateTag(template string) (kind, tag string) {
	open := strings.IndexByte(template, '{')
	if open < 0 {
		return "none", ""
	}
	end := strings.IndexByte(template[open+1:], '}')
	switch {
	case end < 0:
		return "none", ""
	case end == 0:
		return "empty", ""
	}
	tag = template[open+1 : open+1+end]
	if strings.Contains(tag, "<") {
		return "value", tag
	}
	return "constant", tag
}

// onSlot keeps the families whose keys can land on slot: those of that
// known slot, and those whose slot depends on a value.
func onSlot(families []*keyFamily, slot int) []*keyFamily {
	var out []*keyFamily
	for _, f := range families {
		if f.Slot == nil || *f.Slot == slot {
			out = append(out, f)
		}
	}
	return out
}

// matching keeps the families a concrete key matches: each value the code
// does not fix (<...> in the template) matches any text; and the family
// whose old name it is under, when it is.
func matching(families []*keyFamily, key string, old *keyOldName) []*keyFamily {
	var out []*keyFamily
	for _, f := range families {
		if parseTemplate(f.Template).matches(key) || old != nil && f.Template == old.Family {
			out = append(out, f)
		}
	}
	return out
}

// underOldName is the old name key is under, as -live counts it (see
// familyMatcher.match): a tagged family's template without its tag's
// braces, or a -live-old name, when no family's template matches it; nil
// when it is not.
func underOldName(families []*keyFamily, olds oldNames, key string) *keyOldName {
	m := newFamilyMatcher(families, olds)
	g := m.match(key)
	for i, og := range m.oldGroup {
		if og == g {
			o := m.olds[i]
			return &keyOldName{Key: key, Template: o.template, Family: o.family, Untagged: oldTemplate(o.family) == o.template}
		}
	}
	return nil
}

var valuePart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^<>]*>`) })

// writeKeysText prints the families by co-location group, then the
// untagged ones, then the inventory's counts.
func writeKeysText(w io.Writer, families []*keyFamily, slot int, key string, old *keyOldName) {
	switch {
	case slot >= 0:
		fmt.Fprintf(w, "key families that can land on slot %d:\n", slot)
	case key != "":
		fmt.Fprintf(w, "key families that %q (slot %d) matches:\n", key, slotcalc.Slot(key))
	}
	if old != nil {
		how := "the name -live-old gives it"
		if old.Untagged {
			how = "its template without the tag's braces, before the code tagged it"
		}
		fmt.Fprint(w, wrap(fmt.Sprintf("  under the old name %s of %s (%s): migrate or delete it", old.Template, old.Family, how), 80, "    "))
	}
	group := "\x00"
	for _, f := range families {
		if f.Group != group {
			group = f.Group
			switch {
			case group == "":
				fmt.Fprintln(w, "\nno hash tag")
			case f.TagKind == "constant" && f.hot():
				fmt.Fprintf(w, "\n%s: hot, one constant tag for every value: every key on slot %d\n", group, *f.Slot)
			case f.TagKind == "constant":
				fmt.Fprintf(w, "\n%s: one constant tag, slot %d\n", group, *f.Slot)
			default:
				fmt.Fprintf(w, "\n%s: one slot per value\n", group)
			}
		}
		where := "slot depends on its values"
		switch {
		case f.TagKind == "empty" && f.Slot != nil:
			where = fmt.Sprintf("empty tag {}: the whole key is hashed, slot %d", *f.Slot)
		case f.TagKind == "empty":
			where = "empty tag {}: the whole key is hashed"
		case f.Slot != nil:
			where = fmt.Sprintf("slot %d", *f.Slot)
		case f.TagKind == "unknown":
			where = "a value that may hold a brace comes first"
		}
		fmt.Fprintf(w, "  %s (%s)\n", f.Template, where)
		if f.Builder != "" {
			fmt.Fprintf(w, "    made by %s\n", f.Builder)
		}
		fmt.Fprintf(w, "    built at %s\n", strings.Join(f.Built, ", "))
		fmt.Fprintf(w, "    sent by %s\n", strings.Join(f.Uses, ", "))
		var with []string
		for t, v := range f.With {
			with = append(with, fmt.Sprintf("%s (%s)", t, analyzer.SlotsWords[v]))
		}
		sort.Strings(with)
		if len(with) > 0 {
			fmt.Fprintf(w, "    with %s\n", strings.Join(with, ", "))
		}
	}
	fmt.Fprintf(w, "\n%s\n", countFamilies(families))
}

// familyCounts are the inventory's counts, for the readiness summary too.
type familyCounts struct{ families, tagged, hot, combinedUntagged int }

func countFamilies(families []*keyFamily) familyCounts {
	var c familyCounts
	c.families = len(families)
	for _, f := range families {
		switch {
		case f.hot():
			c.tagged++
			c.hot++
		case f.TagKind == "constant" || f.TagKind == "value":
			c.tagged++
		case len(f.With) > 0:
			c.combinedUntagged++
		}
	}
	return c
}

func (c familyCounts) String() string {
	return fmt.Sprintf("%d key families: %d tagged (%d hot: one constant tag for every value), %d untagged but sent with others",
		c.families, c.tagged, c.hot, c.combinedUntagged)
}

// hot reports a family whose tag is one constant while a value sits
// outside it (feed:{global}:<id>): every value's key on one slot, a hot
// slot by construction (the opt-in hottag check's finding).
func (f *keyFamily) hot() bool {
	return f.TagKind == "constant" && valuePart().MatchString(f.Template)
}

// writeKeysMarkdown prints the families as a migration document: one
// table per co-location group, then the untagged families.
func writeKeysMarkdown(w io.Writer, families []*keyFamily) {
	fmt.Fprintf(w, "## Key families\n\n%s.\n", capitalized(countFamilies(families).String()))
	group := "\x00"
	for _, f := range families {
		if f.Group != group {
			group = f.Group
			title := "No hash tag"
			if group != "" {
				title = "Group `" + group + "`"
			}
			fmt.Fprintf(w, "\n### %s\n\n| family | slot | written at | sent by | sent with |\n|---|---|---|---|---|\n", title)
		}
		slot := "depends on its values"
		switch {
		case f.TagKind == "empty":
			slot = "empty tag: whole key hashed"
		case f.Slot != nil:
			slot = strconv.Itoa(*f.Slot)
		case f.TagKind == "unknown":
			slot = "unknown"
		}
		var with []string
		for t, v := range f.With {
			with = append(with, fmt.Sprintf("`%s` (%s)", t, analyzer.SlotsWords[v]))
		}
		sort.Strings(with)
		cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
		family := "`" + cell(f.Template) + "`"
		if f.Builder != "" {
			family += " (" + cell(f.Builder) + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", family, slot, cell(strings.Join(f.Built, ", ")), cell(strings.Join(f.Uses, ", ")), cell(strings.Join(with, ", ")))
	}
}
