package main

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/slotcalc"
)

// The live report in text (for a terminal of 80 columns), Markdown and
// HTML.

// count writes a figure with its interval: "1500", "~1500±40".
func count(n, err int64) string {
	if err == 0 {
		return strconv.FormatInt(n, 10)
	}
	return fmt.Sprintf("~%d±%d", n, err)
}

// size writes bytes for a person: "512 B", "246.0 KiB", "1.3 GiB"; "?"
// when the server did not say.
func size(b *int64, err int64) string {
	if b == nil {
		return "?"
	}
	s := bytesText(*b)
	if err > 0 {
		s = "~" + s
	}
	return s
}

func bytesText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGT"[i])
}

func percent(share float64) string { return fmt.Sprintf("%.0f%%", 100*share) }

// liveHeadline is the report's first lines: what was read, and how.
func liveHeadline(r *liveReport) []string {
	kind := "a standalone server"
	if r.Cluster {
		kind = fmt.Sprintf("a cluster of %d nodes read", len(r.Nodes))
	}
	server := ""
	if r.Server != "" {
		server = " (" + r.Server + ")"
	}
	keys := fmt.Sprintf("%d keys; ", r.Keys)
	unsized := 0
	for _, n := range r.Nodes {
		if n.Unsized {
			unsized++
		}
	}
	switch {
	case unsized == len(r.Nodes):
		keys = "" // no node said
	case unsized > 0:
		keys = fmt.Sprintf("%d keys on the nodes that said (%d of %d did not); ", r.Keys, unsized, len(r.Nodes))
	}
	return []string{
		fmt.Sprintf("live: %s%s, %s", r.URL, server, kind),
		keys + r.Method,
	}
}

// writeLiveText prints the families' live figures, the keys under old
// names, the foreign keys, the hottest slots and the nodes.
func writeLiveText(w io.Writer, r *liveReport, families []*keyFamily) {
	for _, l := range liveHeadline(r) {
		fmt.Fprint(w, wrap(l, 80, "  "))
	}
	const head = "%-26s %10s %10s %6s %5s %5s %s\n"
	row := func(name string, f liveFigures, last string) {
		if len(name) > 26 {
			fmt.Fprintln(w, name)
			name = ""
		}
		line := fmt.Sprintf(head, name, count(f.Keys, f.KeysError), size(f.Bytes, f.BytesError), noTTL(f), strconv.Itoa(f.Slots), strconv.Itoa(f.Nodes), last)
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, head, "family", "keys", "bytes", "no TTL", "slots", "nodes", "top slot")
	for _, f := range families {
		if f.Live == nil {
			continue
		}
		row(f.Template, *f.Live, topSlot(*f.Live))
	}
	if len(r.Unmatchable) > 0 {
		fmt.Fprintf(w, "not matched: %s (no fixed text to tell their keys from others)\n", strings.Join(r.Unmatchable, ", "))
	}
	if len(r.Old) > 0 {
		fmt.Fprintln(w, "\nunder old names, before the code tagged them: migrate or delete them")
		for _, o := range r.Old {
			row(o.Template, o.liveFigures, "")
			fmt.Fprintf(w, "%26s now %s\n", "", o.Family)
		}
	}
	foreign := fmt.Sprintf("no family of this code builds %s keys (%s)", count(r.Foreign.Keys, r.Foreign.KeysError), size(r.Foreign.Bytes, r.Foreign.BytesError))
	if len(r.Foreign.Prefixes) > 0 {
		var ps []string
		for _, p := range r.Foreign.Prefixes {
			ps = append(ps, fmt.Sprintf("%s*\u00a0%d", p.Prefix, p.Keys))
		}
		foreign += ": " + strings.Join(ps, ", ")
	}
	fmt.Fprint(w, "\n"+strings.ReplaceAll(wrap(foreign, 80, "  "), "\u00a0", " "))
	if len(r.HotSlots) > 0 {
		fmt.Fprintln(w, "\nhottest slots")
		for _, s := range r.HotSlots {
			on := ""
			if s.Node != "" {
				on = " on " + s.Node
			}
			fmt.Fprint(w, wrap(fmt.Sprintf("  slot %d%s: %d keys: %s", s.Slot, on, s.Keys, slotFamilies(s, r.Exact)), 80, "    "))
			if f := hotFamily(s, families); f != nil {
				fmt.Fprint(w, wrap(fmt.Sprintf("    every value of %s is here: its one constant tag {%s} is one slot; give each value a tag of its own", f.Template, f.Tag), 80, "    "))
			}
		}
	}
	fmt.Fprintln(w, "\nnodes")
	for _, n := range r.Nodes {
		state := "every key read"
		keys := fmt.Sprintf("%d keys", n.Keys)
		if n.Unsized {
			keys = "keys unknown"
		}
		switch {
		case n.Error != "":
			state = fmt.Sprintf("read %d, then: %s", n.Read, n.Error)
		case !n.Complete:
			state = fmt.Sprintf("%d sampled", n.Read)
		}
		role := ""
		if n.Replica {
			role = " (replica)"
		}
		fmt.Fprint(w, wrap(fmt.Sprintf("  %s%s slots %s: %s, %s", n.Addr, role, n.Slots, keys, state), 80, "    "))
	}
	for _, u := range r.Unread {
		fmt.Fprint(w, wrap("not read: "+u, 80, "  "))
	}
}

// hotFamily is the family most of a hot slot's keys belong to when its
// tag is one constant for every value (feed:{global}:<id>), else nil.
func hotFamily(s liveSlot, families []*keyFamily) *keyFamily {
	if len(s.Families) == 0 {
		return nil
	}
	for _, f := range families {
		if f.Template == s.Families[0].Prefix && f.hot() {
			return f
		}
	}
	return nil
}

// slotFamilies are the families of a hot slot's keys: their counts when
// every key was read, else their shares of the names drawn there.
func slotFamilies(s liveSlot, exact bool) string {
	var total int64
	for _, f := range s.Families {
		total += f.Keys
	}
	var fs []string
	for _, f := range s.Families[:min(3, len(s.Families))] {
		if exact {
			fs = append(fs, fmt.Sprintf("%s %d", f.Prefix, f.Keys))
		} else {
			fs = append(fs, fmt.Sprintf("%s %s", f.Prefix, percent(float64(f.Keys)/float64(total))))
		}
	}
	if len(s.Families) > 3 {
		fs = append(fs, fmt.Sprintf("%d more", len(s.Families)-3))
	}
	return strings.Join(fs, ", ")
}

// wrap breaks text at spaces into lines of at most width bytes (a word
// longer than that keeps its own line), the lines after the first
// indented.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	rest := strings.TrimLeft(text, " ")
	line := text[:len(text)-len(rest)]
	for i, word := range strings.Split(rest, " ") {
		switch {
		case i == 0:
			line += word
		case len(line)+1+len(word) <= width:
			line += " " + word
		default:
			b.WriteString(line + "\n")
			line = indent + word
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

func noTTL(f liveFigures) string {
	if f.Measured == 0 {
		return "?"
	}
	return percent(f.NoTTL)
}

// topSlot is the slot that holds most of a family's keys: with their
// number when every key was read, else with its share of the names drawn.
func topSlot(f liveFigures) string {
	switch {
	case f.Keys == 0:
		return ""
	case f.KeysError == 0:
		return fmt.Sprintf("%d (%d)", f.TopSlot, f.TopSlotKeys)
	}
	return fmt.Sprintf("%d %s", f.TopSlot, percent(f.TopSlotShare))
}

// writeLiveMarkdown adds the live figures to the migration document.
func writeLiveMarkdown(w io.Writer, r *liveReport, families []*keyFamily) {
	h := liveHeadline(r)
	fmt.Fprintf(w, "\n## On the live server\n\n%s. %s.\n\n", capitalized(strings.TrimPrefix(h[0], "live: ")), capitalized(h[1]))
	fmt.Fprintln(w, "| family | keys | bytes | no TTL | slots | nodes | top slot (keys) |\n|---|---|---|---|---|---|---|")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, f := range families {
		if l := f.Live; l != nil {
			fmt.Fprintf(w, "| `%s` | %s | %s | %s | %d | %d | %s |\n", cell(f.Template), count(l.Keys, l.KeysError), size(l.Bytes, l.BytesError), noTTL(*l), l.Slots, l.Nodes, topSlot(*l))
		}
	}
	if len(r.Old) > 0 {
		fmt.Fprintln(w, "\n### Keys under old names\n\n| old name | now | keys | bytes | slots | nodes |\n|---|---|---|---|---|---|")
		for _, o := range r.Old {
			fmt.Fprintf(w, "| `%s` | `%s` | %s | %s | %d | %d |\n", cell(o.Template), cell(o.Family), count(o.Keys, o.KeysError), size(o.Bytes, o.BytesError), o.Slots, o.Nodes)
		}
	}
	fmt.Fprintf(w, "\n### Keys no family builds\n\n%s keys, %s.", count(r.Foreign.Keys, r.Foreign.KeysError), size(r.Foreign.Bytes, r.Foreign.BytesError))
	for _, p := range r.Foreign.Prefixes {
		fmt.Fprintf(w, " `%s` %d.", cell(p.Prefix), p.Keys)
	}
	fmt.Fprintln(w)
	if len(r.HotSlots) > 0 {
		fmt.Fprintln(w, "\n### Hottest slots\n\n| slot | node | keys | families |\n|---|---|---|---|")
		for _, s := range r.HotSlots {
			fmt.Fprintf(w, "| %d | %s | %d | %s |\n", s.Slot, s.Node, s.Keys, cell(slotFamilies(s, r.Exact)))
		}
	}
	for _, u := range r.Unread {
		fmt.Fprintf(w, "\nNot read: %s\n", cell(u))
	}
}

// heatCells is the number of cells of the HTML page's slot strip, each
// 16384/heatCells slots.
const heatCells = 256

// writeLiveHTML writes the page's live section: the headline, a strip of
// the slots' keys (each cell a run of slots, darker with more keys, its
// figures in its title), the old names and the foreign keys.
func writeLiveHTML(w io.Writer, r *liveReport) {
	var cells [heatCells]int64
	var top int64
	for _, sk := range r.SlotKeys {
		c := int(sk[0]) * heatCells / slotcalc.SlotCount
		cells[c] += sk[1]
		top = max(top, cells[c])
	}
	h := liveHeadline(r)
	fmt.Fprintf(w, "<section class=\"live\"><h2>%s</h2><p>%s</p>\n<div class=\"strip\" aria-label=\"keys per slot\">",
		html.EscapeString(h[0]), html.EscapeString(h[1]))
	per := slotcalc.SlotCount / heatCells
	for i, n := range cells {
		alpha := 0.0
		if top > 0 {
			alpha = float64(n) / float64(top)
		}
		fmt.Fprintf(w, `<i style="opacity:%.2f" title="slots %d-%d: %d keys"></i>`, 0.06+0.94*alpha, i*per, (i+1)*per-1, n)
	}
	fmt.Fprintln(w, "</div><p class=\"made\">slots 0 to 16383, left to right; darker holds more keys</p>")
	if len(r.HotSlots) > 0 {
		io.WriteString(w, "<p>Hottest slots: ")
		for i, s := range r.HotSlots {
			if i > 0 {
				io.WriteString(w, "; ")
			}
			fmt.Fprintf(w, "<b>%d</b> %d keys (%s)", s.Slot, s.Keys, html.EscapeString(slotFamilies(s, r.Exact)))
		}
		io.WriteString(w, "</p>\n")
	}
	for _, o := range r.Old {
		fmt.Fprintf(w, "<p class=\"old\">Under the old name <code>%s</code>, now <code>%s</code>: %s keys, %s, on %d slots: migrate or delete them.</p>\n",
			html.EscapeString(o.Template), html.EscapeString(o.Family), count(o.Keys, o.KeysError), html.EscapeString(size(o.Bytes, o.BytesError)), o.Slots)
	}
	fmt.Fprintf(w, "<p>No family of this code builds %s keys (%s)", count(r.Foreign.Keys, r.Foreign.KeysError), html.EscapeString(size(r.Foreign.Bytes, r.Foreign.BytesError)))
	for i, p := range r.Foreign.Prefixes {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(w, "%s<code>%s</code> %d", sep, html.EscapeString(p.Prefix), p.Keys)
	}
	io.WriteString(w, ".</p>\n")
	for _, u := range r.Unread {
		fmt.Fprintf(w, "<p class=\"unread\">Not read: %s</p>\n", html.EscapeString(u))
	}
	io.WriteString(w, "</section>\n")
}

// liveBadge is a family row's live figures on the HTML page.
func liveBadge(f *keyFamily) string {
	l := f.Live
	if l == nil {
		return ""
	}
	return fmt.Sprintf(`<div class="livefig">%s keys, %s, no TTL %s, %d slots, %d nodes, top slot %s</div>`,
		count(l.Keys, l.KeysError), html.EscapeString(size(l.Bytes, l.BytesError)), noTTL(*l), l.Slots, l.Nodes, html.EscapeString(topSlot(*l)))
}
