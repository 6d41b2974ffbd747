package main

import (
	"fmt"
	"html"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/crossslot/crossslot/analyzer"
)

// writeKeysHTML writes the families as one self-contained page (no
// network, no script), laid out by the browser so that a module of
// hundreds of families stays readable: each co-location group a card of a
// grid that fills the page's width, the untagged families last in
// columns; each family a row with its template (wrapped, never clipped),
// the builder that makes it, and one badge per family sent with it in a
// command or transaction, red where the pair is a crossslot finding, each
// badge a link to the other family. A constant tag's group is marked hot
// (every key on one slot). Where each family is written and sent is in the
// row's details, and the browser's find reaches every family. With a live
// read, each family shows its live figures and the page opens with the
// slots' heat strip.
func writeKeysHTML(w io.Writer, families []*keyFamily, lr *liveReport) {
	var order []string // groups in families' order, the untagged last
	members := map[string][]*keyFamily{}
	id := map[string]int{}
	for i, f := range families {
		if _, ok := members[f.Group]; !ok {
			order = append(order, f.Group)
		}
		members[f.Group] = append(members[f.Group], f)
		id[f.Template] = i
	}
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Key families</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; color: #1b1f24; }
.groups { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); gap: 16px; align-items: start; }
.group { border: 1px solid #8c959f; border-radius: 6px; padding: 8px 10px; background: #fff; min-width: 0; }
.group.hot { border: 3px solid #d4720b; }
.group.untagged { grid-column: 1 / -1; }
.group.untagged .families { columns: 380px; column-gap: 16px; }
.group h2 { font-size: 14px; margin: 0 0 6px; overflow-wrap: anywhere; }
.family { break-inside: avoid; border: 1px solid #54aeff; background: #ddf4ff; border-radius: 4px; padding: 3px 6px; margin: 4px 0; }
.family:target { background: #fff8c5; }
.family code { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.made { color: #57606a; font-size: 12px; }
.with { display: inline-block; font: 11px ui-monospace, monospace; border-radius: 3px; padding: 0 4px; margin: 2px 2px 0 0; overflow-wrap: anywhere; max-width: 100%%; }
.with a { color: inherit; text-decoration: none; }
.with.one { border: 1px solid #2da44e; color: #116329; } .with.split { border: 1px dashed #0969da; color: #0550ae; }
.with.unknown { border: 1px dotted #8c959f; color: #57606a; } .with.different { border: 2px solid #cf222e; color: #a40e26; font-weight: 600; }
details { font-size: 12px; color: #57606a; overflow-wrap: anywhere; }
.live { margin: 0 0 16px; overflow-wrap: anywhere; } .live h2 { font-size: 15px; margin: 0; }
.strip { display: grid; grid-template-columns: repeat(256, 1fr); height: 28px; border: 1px solid #8c959f; }
.strip i { background: #cf222e; }
.livefig { font-size: 12px; color: #0550ae; }
.old { color: #9a6700; }
.unread { color: #a40e26; font-weight: 600; }
</style></head><body>
<h1>Key families</h1>
<p>%s. Cards are co-location groups (one hash tag); an orange card is hot: one constant tag for every value, every key on one slot. Under each family, the families sent with it in one command or transaction: green on one slot, red on different slots (a crossslot finding), blue split by the client, grey not proved.</p>
`, html.EscapeString(capitalized(countFamilies(families).String())))
	if lr != nil {
		writeLiveHTML(w, lr)
	}
	io.WriteString(w, "<div class=\"groups\">\n")
	for _, g := range order {
		fams := members[g]
		title, class := "no hash tag", "group untagged"
		if g != "" {
			title, class = g, "group"
			switch {
			case fams[0].TagKind == "constant" && fams[0].Slot != nil && slices.ContainsFunc(fams, (*keyFamily).hot):
				title += fmt.Sprintf(" — hot: every value on slot %d", *fams[0].Slot)
				class = "group hot"
			case fams[0].Slot != nil:
				title += fmt.Sprintf(" — slot %d", *fams[0].Slot)
			default:
				title += " — one slot per value"
			}
		}
		fmt.Fprintf(w, "<section class=\"%s\"><h2>%s</h2><div class=\"families\">\n", class, html.EscapeString(title))
		for _, f := range fams {
			fmt.Fprintf(w, `<div class="family" id="f%d"><code>%s</code>`, id[f.Template], html.EscapeString(f.Template))
			if f.Builder != "" {
				fmt.Fprintf(w, ` <span class="made">made by %s</span>`, html.EscapeString(f.Builder))
			}
			io.WriteString(w, liveBadge(f))
			var others []string
			for t := range f.With {
				others = append(others, t)
			}
			sort.Strings(others)
			if len(others) > 0 {
				io.WriteString(w, "<div>")
			}
			for _, t := range others {
				v := f.With[t]
				link := html.EscapeString(t)
				if n, ok := id[t]; ok {
					link = fmt.Sprintf(`<a href="#f%d">%s</a>`, n, link)
				}
				fmt.Fprintf(w, `<span class="with %s" title="%s">%s</span>`, v, html.EscapeString(analyzer.SlotsWords[v]), link)
			}
			if len(others) > 0 {
				io.WriteString(w, "</div>")
			}
			fmt.Fprintf(w, "<details><summary>written and sent</summary>written at %s; sent by %s</details></div>\n",
				html.EscapeString(strings.Join(f.Built, ", ")), html.EscapeString(strings.Join(f.Uses, ", ")))
		}
		fmt.Fprintln(w, "</div></section>")
	}
	fmt.Fprintln(w, "</div>\n</body></html>")
}
