package analyzer

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// coLocateFix suggests the remedy Redis documents for keys of one entity that
// land on different slots: give them the entity as a shared hash tag, so
// "user:1:profile" and "user:1:settings" become "{user:1}:profile" and
// "{user:1}:settings".
//
// It is offered only when it is surely right, and otherwise left out:
//   - every key of the command is a string literal at the call, so that every
//     key is rewritten and the command then stays on one slot;
//   - no key has a brace already;
//   - all keys share everything before their last ':', and that shared part
//     holds a ':' itself ("type:id"). Keys of different entities, such as
//     "user:1:a" and "user:2:a", are not given one tag: that would pile every
//     user on one slot. Such a batch should be split by slot instead.
//
// The fix renames keys; data stored under the old names stays there.
func coLocateFix(keys []keyArg, literals map[positioned]*ast.BasicLit) []analysis.SuggestedFix {
	entity := ""
	var edits []analysis.TextEdit
	edited := map[*ast.BasicLit]bool{}
	for i, k := range keys {
		lit, ok := literals[k.at]
		if !ok || len(k.alts) != 1 {
			return nil
		}
		if edited[lit] {
			continue // one literal read twice, as with a slice passed twice
		}
		edited[lit] = true
		text, ok := k.alts[0].known()
		if !ok || strings.ContainsAny(text, "{}") {
			return nil
		}
		sep := strings.LastIndexByte(text, ':')
		if sep < 0 {
			return nil
		}
		if i == 0 {
			entity = text[:sep]
		}
		if text[:sep] != entity || !strings.Contains(entity, ":") {
			return nil
		}
		tagged := "{" + entity + "}" + text[sep:]
		edits = append(edits, analysis.TextEdit{Pos: lit.Pos(), End: lit.End(), NewText: []byte(literalLike(lit, tagged))})
	}
	if len(edits) == 0 {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("put the shared %q in a hash tag, renaming the keys", entity),
		TextEdits: edits,
	}}
}

// literalLike writes s in the quoting style of lit: raw stays raw.
func literalLike(lit *ast.BasicLit, s string) string {
	if strings.HasPrefix(lit.Value, "`") && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
