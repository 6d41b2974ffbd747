package analyzer

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// tagProblems is the emptytag, doubletag and unclosedtag checks: a key
// whose hash tag is malformed for every value it can take.
var tagProblems = &unitKind{new: func(p *unitPass) reading.Visitor { return tags{pass: p} }}

type tags struct {
	hooks
	pass *unitPass
}

func (u tags) Key(c *reading.Command, k keymodel.Arg) {
	if len(k.Alts) == 0 {
		return
	}
	var assumed []string
	problem := keymodel.NoTagProblem
	for i, alt := range k.Alts {
		p, names := alt.TagProblemAssuming()
		if len(names) > 0 && u.pass.cfg.ProofsOnly {
			return // near-sure: it holds unless an id holds a brace
		}
		if i > 0 && p != problem {
			return // not every value has it
		}
		problem = p
		for _, name := range names {
			if !slices.Contains(assumed, name) {
				assumed = append(assumed, name)
			}
		}
	}
	key := k.Alts[0]
	var category, msg, remedy string
	switch problem {
	case keymodel.EmptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", c.Method, key.Quoted())
		remedy = "put the entity's id between the braces, or remove them"
	case keymodel.DoubleTag:
		tag, _ := key.Tag()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", c.Method, key.Quoted(), tag)
		remedy = "keep one pair of braces, around the part that decides the slot"
	case keymodel.NestedTag:
		tag, _ := key.Tag()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a '{' inside its hash tag: the server hashes %s, from the first '{' to the first '}'", c.Method, key.Quoted(), tag.Quoted())
		remedy = "keep one pair of braces, around the part that decides the slot"
	case keymodel.UnclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", c.Method, key.Quoted())
		remedy = "close the tag with '}', or remove the '{'"
	default:
		return
	}
	u.pass.report(analysis.Diagnostic{Pos: k.At.Pos, End: k.At.End, Category: category,
		Message: msg + keymodel.AssumingNoBrace(assumed) + "; " + remedy})
}
