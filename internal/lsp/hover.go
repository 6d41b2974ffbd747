package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// hover answers a hover over a key expression the analysis read: its
// template, hash tag and slot (or what the slot depends on), and the keys
// each command or transaction sends it with, as crossslot keys lists them.
// Nil (no hover) elsewhere.
func (s *server) hover(msg *protocol.Message) *protocol.Hover {
	var p protocol.HoverParams
	if !s.decode(msg, &p) {
		return nil
	}
	file, err := protocol.Path(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	line, col := p.Position.Line+1, p.Position.Character+1
	inside := func(sp analyzer.Span) bool {
		return sp.File == file && (line > sp.Line || line == sp.Line && col >= sp.Column) && (line < sp.EndLine || line == sp.EndLine && col < sp.EndColumn)
	}
	s.state.Lock()
	defer s.state.Unlock()
	var ref *analyzer.KeyRef
	with := map[string]string{}
	var sentBy []string
	for _, inv := range s.keys {
		for _, u := range inv.Uses {
			for i := range u.Keys {
				if !inside(u.Keys[i].Span) {
					continue
				}
				ref = &u.Keys[i]
				sentBy = append(sentBy, u.Command)
				for _, pair := range u.Pairs {
					other := -1
					switch i {
					case pair.A:
						other = pair.B
					case pair.B:
						other = pair.A
					}
					if other >= 0 && u.Keys[other].Template != ref.Template {
						with[u.Keys[other].Template] = analyzer.WorseSlots(with[u.Keys[other].Template], pair.Slots)
					}
				}
			}
		}
	}
	if ref == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**key** `%s`\n\n", ref.Template)
	switch ref.TagKind {
	case "constant":
		fmt.Fprintf(&b, "hash tag `{%s}`, one constant: slot %d", ref.Tag, *ref.Slot)
	case "value":
		fmt.Fprintf(&b, "hash tag `{%s}`: the slot depends on its values", ref.Tag)
	case "empty":
		b.WriteString("empty hash tag `{}`: the whole key is hashed")
	case "unknown":
		b.WriteString("a value that may hold a brace comes first: its hash tag is not known")
	default:
		b.WriteString("no hash tag")
		if ref.Slot != nil {
			fmt.Fprintf(&b, ": slot %d", *ref.Slot)
		} else {
			b.WriteString(": the slot depends on its values")
		}
	}
	fmt.Fprintf(&b, "\n\nsent by %s", strings.Join(sentBy, ", "))
	var others []string
	for t, v := range with {
		others = append(others, fmt.Sprintf("`%s` (%s)", t, analyzer.SlotsWords[v]))
	}
	sort.Strings(others)
	if len(others) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(others, ", "))
	}
	sp := ref.Span
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: "markdown", Value: b.String()},
		Range: &protocol.Range{Start: protocol.Position{Line: sp.Line - 1, Character: sp.Column - 1},
			End: protocol.Position{Line: sp.EndLine - 1, Character: sp.EndColumn - 1}},
	}
}
