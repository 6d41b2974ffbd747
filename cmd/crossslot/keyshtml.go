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
// network, no script): a graph drawn in SVG, each co-location group a box,
// each family a node, each pair sent together an edge, red where the pair
// is a crossslot finding; a constant tag's group is marked hot (every key on
// one slot). Each node links to its family's lines in the list below.
func writeKeysHTML(w io.Writer, families []*keyFamily) {
	const (
		boxW, nodeH, gap, pageW = 300, 26, 24, 1280
		perRow                  = pageW / (boxW + gap)
	)
	type node struct{ x, y int }
	at := map[string]node{}
	var boxes []string
	var order []string // groups in families' order
	members := map[string][]*keyFamily{}
	for _, f := range families {
		if _, ok := members[f.Group]; !ok {
			order = append(order, f.Group)
		}
		members[f.Group] = append(members[f.Group], f)
	}
	x, y, rowH := gap, gap, 0
	id := map[string]int{}
	for i, f := range families {
		id[f.Template] = i
	}
	for i, g := range order {
		fams := members[g]
		h := 34 + len(fams)*nodeH + 10
		if i > 0 && i%perRow == 0 {
			x, y, rowH = gap, y+rowH+gap, 0
		}
		title, class := "no hash tag", "group"
		if g != "" {
			title = g
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
		var b strings.Builder
		fmt.Fprintf(&b, `<g class="%s"><rect x="%d" y="%d" width="%d" height="%d" rx="6"/><text class="title" x="%d" y="%d">%s</text>`,
			class, x, y, boxW, h, x+10, y+20, html.EscapeString(title))
		for j, f := range fams {
			ny := y + 34 + j*nodeH
			at[f.Template] = node{x + 10, ny + nodeH/2 - 2}
			fmt.Fprintf(&b, `<a href="#f%d"><g class="family"><rect x="%d" y="%d" width="%d" height="%d" rx="4"/><text x="%d" y="%d">%s</text><title>%s</title></g></a>`,
				id[f.Template], x+10, ny, boxW-20, nodeH-4, x+16, ny+16, html.EscapeString(f.Template), html.EscapeString(f.Template))
		}
		b.WriteString("</g>")
		boxes = append(boxes, b.String())
		x += boxW + gap
		rowH = max(rowH, h)
	}
	height := y + rowH + gap
	var edges []string
	drawn := map[[2]string]bool{}
	for _, f := range families {
		var others []string
		for t := range f.With {
			others = append(others, t)
		}
		sort.Strings(others)
		for _, t := range others {
			pair := [2]string{min(f.Template, t), max(f.Template, t)}
			a, okA := at[f.Template]
			b, okB := at[t]
			if drawn[pair] || !okA || !okB {
				continue
			}
			drawn[pair] = true
			v := f.With[t]
			edges = append(edges, fmt.Sprintf(`<path class="edge %s" d="M%d %d C%d %d %d %d %d %d"><title>%s and %s: %s</title></path>`,
				v, a.x, a.y, a.x-40, a.y, b.x-40, b.y, b.x, b.y, html.EscapeString(f.Template), html.EscapeString(t), analyzer.SlotsWords[v]))
		}
	}
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Key families</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; color: #1b1f24; }
svg { border: 1px solid #d0d7de; background: #fafbfc; }
.group > rect { fill: #ffffff; stroke: #8c959f; }
.group.hot > rect { stroke: #d4720b; stroke-width: 3; }
.title { font-weight: 600; }
.family rect { fill: #ddf4ff; stroke: #54aeff; }
.family text { font: 12px ui-monospace, monospace; }
.edge { fill: none; stroke-width: 2; }
.edge.one { stroke: #2da44e; } .edge.split { stroke: #0969da; stroke-dasharray: 6 3; }
.edge.unknown { stroke: #8c959f; stroke-dasharray: 2 3; } .edge.different { stroke: #cf222e; stroke-width: 3; }
li:target { background: #fff8c5; }
</style></head><body>
<h1>Key families</h1>
<p>%s. Boxes are co-location groups (one hash tag); an orange box is hot: one constant tag for every value, every key on one slot. Lines join families sent in one command or transaction: green on one slot, red on different slots (a crossslot finding), blue split by the client, grey not proved.</p>
<svg id="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">
%s
%s
</svg>
<h2>Families</h2>
<ol>
`, html.EscapeString(capitalized(countFamilies(families).String())), pageW, height, pageW, height, strings.Join(edges, "\n"), strings.Join(boxes, "\n"))
	for i, f := range families {
		made := ""
		if f.Builder != "" {
			made = " (made by " + html.EscapeString(f.Builder) + ")"
		}
		fmt.Fprintf(w, "<li id=\"f%d\"><code>%s</code>%s: written at %s; sent by %s</li>\n", i, html.EscapeString(f.Template), made,
			html.EscapeString(strings.Join(f.Built, ", ")), html.EscapeString(strings.Join(f.Uses, ", ")))
	}
	fmt.Fprintln(w, "</ol>\n</body></html>")
}
