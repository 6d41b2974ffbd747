package analyzer

import (
	"fmt"

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
	problem := k.Alts[0].TagProblem()
	for _, alt := range k.Alts[1:] {
		if alt.TagProblem() != problem {
			return // not every value has it
		}
	}
	key := k.Alts[0]
	var category, msg string
	switch problem {
	case keymodel.EmptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", c.Method, key.Quoted())
	case keymodel.DoubleTag:
		tag, _ := key.Hashed()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", c.Method, key.Quoted(), tag)
	case keymodel.UnclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", c.Method, key.Quoted())
	default:
		return
	}
	u.pass.report(analysis.Diagnostic{Pos: k.At.Pos, End: k.At.End, Category: category, Message: msg})
}
