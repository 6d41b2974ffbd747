package clients

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Keys that came from the server: a batch that KEYS or SCAN returned
//
//	keys, _ := rdb.Keys(ctx, "cache:*").Result()
//	keys, cursor, err := rdb.Scan(ctx, cursor, "cache:*", 100).Result()
//	entry, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match("cache:*").Build()).AsScanEntry() // rueidis, valkey-go
//
// or that the code collects from several (the pages of a cursor, the SCAN
// of each master or node) holds keys of any slot, unless the MATCH pattern
// fixes a hash tag ("cache:{user1}:*"); a node's SCAN as much as a cluster
// client's, since a node refuses a command whose keys are on two slots even
// when it owns both. A command over such a batch is read as a family of
// keys (see keymodel.Arg.Family): the pattern with each glob a part that
// differs from one key to the next. (A key that a glob matches may hold a
// tag of its own; two such keys are on one slot only if the tags are
// equal, which the pattern does not ensure either: the part is taken to
// hold no brace.)

// serverKeys reads v as the keys of a KEYS or SCAN reply, or of replies
// collected in a loop (see collectedReplies): the template of its keys, and
// what they are, for messages. ok is false for any other value.
func serverKeys(ev *eval.Evaluator, v ssa.Value) (each []keymodel.Key, of string, ok bool) {
	if each, of, ok := oneReply(ev, v); ok {
		return each, of, true
	}
	return collectedReplies(ev, v)
}

// oneReply reads v as the keys of one KEYS or SCAN reply: go-redis's Val or
// Result of Keys or Scan, or a rueidis or valkey-go reply (builderReply).
func oneReply(ev *eval.Evaluator, v ssa.Value) (each []keymodel.Key, of string, ok bool) {
	if each, of, ok := builderReply(ev, v); ok {
		return each, of, true
	}
	if ext, isExtract := v.(*ssa.Extract); isExtract && ext.Index == 0 {
		v = ext.Tuple
	}
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return nil, "", false
	}
	get := ssaread.CalledFunc(&call.Call)
	if get == nil || (get.Name() != "Val" && get.Name() != "Result") || len(call.Call.Args) != 1 {
		return nil, "", false
	}
	cmd, isCall := call.Call.Args[0].(*ssa.Call)
	if !isCall {
		return nil, "", false
	}
	m := GoRedisMethod(&cmd.Call)
	if m == nil {
		return nil, "", false
	}
	site := NewSite(ev, &cmd.Call, m.Signature())
	var pattern ssa.Value
	switch m.Name() {
	case "Keys":
		_, pattern, ok = site.Param("pattern")
	case "Scan":
		_, pattern, ok = site.Param("match")
	}
	if !ok {
		return nil, "", false
	}
	ks := ev.Keys(pattern)
	if len(ks) != 1 {
		return nil, "", false
	}
	return matched(ks[0], ev.Show(call), strings.ToUpper(m.Name()))
}

// matched is the keys a KEYS or SCAN reply of the pattern holds, and what
// they are, for messages.
func matched(pattern keymodel.Key, batch, command string) ([]keymodel.Key, string, bool) {
	key := globTemplate(pattern, batch)
	return []keymodel.Key{key}, "keys that " + command + " " + key.Quoted() + " returns", true
}

// builderReply reads v as the keys of a rueidis or valkey-go reply: the
// elements of a SCAN's AsScanEntry, or a KEYS's AsStrSlice, of a Do of the
// built command on any client of the library (a node's too)
//
//	entry, _ := node.Do(ctx, node.B().Scan().Cursor(c).Match("sess:*").Build()).AsScanEntry()
//	entry.Elements
//	keys, _ := c.Do(ctx, c.B().Keys().Pattern("sess:*").Build()).AsStrSlice()
//
// A SCAN without MATCH returns any key.
func builderReply(ev *eval.Evaluator, v ssa.Value) (each []keymodel.Key, of string, ok bool) {
	var tuple ssa.Value
	var as, command, patternMethod string
	if entry, field, isField := structField(v); isField { // entry.Elements
		st, isStruct := entry.Type().Underlying().(*types.Struct)
		ext, isExtract := entry.(*ssa.Extract)
		if !isStruct || !isExtract || ext.Index != 0 || st.Field(field).Name() != "Elements" {
			return nil, "", false
		}
		tuple, as, command, patternMethod = ext.Tuple, "AsScanEntry", "SCAN", "Match"
	} else if ext, isExtract := v.(*ssa.Extract); isExtract && ext.Index == 0 { // keys, _ := ....AsStrSlice()
		tuple, as, command, patternMethod = ext.Tuple, "AsStrSlice", "KEYS", "Pattern"
	} else {
		return nil, "", false
	}
	call, isCall := tuple.(*ssa.Call)
	if !isCall || !isBuilderModuleMethod(&call.Call, as) || len(call.Call.Args) != 1 {
		return nil, "", false
	}
	do, isCall := call.Call.Args[0].(*ssa.Call)
	if !isCall || !isBuilderModuleMethod(&do.Call, "Do") || len(do.Call.Args) == 0 {
		return nil, "", false
	}
	built, isCall := do.Call.Args[len(do.Call.Args)-1].(*ssa.Call)
	if !isCall {
		return nil, "", false
	}
	b, isBuilt := builderChain(built)
	if !isBuilt || b.name != command || b.arbitrary != nil {
		return nil, "", false
	}
	pattern := keymodel.Key{} // no MATCH: any key
	for _, c := range b.calls {
		if c.Call.StaticCallee().Name() != patternMethod {
			continue
		}
		if len(c.Call.Args) != 2 {
			return nil, "", false
		}
		ks := ev.Keys(c.Call.Args[1])
		if len(ks) != 1 {
			return nil, "", false
		}
		pattern = ks[0]
	}
	return matched(pattern, ev.Show(call), command)
}

// structField reads v as a field of a struct value: the struct and the
// field's index. The struct is a value, or a local variable the function
// sets once and only reads fields of (entry, _ := ...; entry.Elements).
func structField(v ssa.Value) (ssa.Value, int, bool) {
	switch v := v.(type) {
	case *ssa.Field:
		return v.X, v.Field, true
	case *ssa.UnOp:
		fa, isField := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !isField {
			return nil, 0, false
		}
		alloc, isLocal := fa.X.(*ssa.Alloc)
		if !isLocal || alloc.Heap {
			return nil, 0, false
		}
		var stored ssa.Value
		for _, ref := range *alloc.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Addr != alloc || stored != nil {
					return nil, 0, false
				}
				stored = ref.Val
			case *ssa.FieldAddr:
				for _, use := range *ref.Referrers() {
					if load, isLoad := use.(*ssa.UnOp); !isLoad || load.Op != token.MUL {
						if _, isDebug := use.(*ssa.DebugRef); !isDebug {
							return nil, 0, false // written, or its address passed on
						}
					}
				}
			case *ssa.DebugRef:
			default:
				return nil, 0, false
			}
		}
		return stored, fa.Field, stored != nil
	}
	return nil, 0, false
}

// isBuilderModuleMethod: the call calls method name of a type of rueidis
// or valkey-go (an interface's, such as Client's Do, or a concrete one's).
func isBuilderModuleMethod(common *ssa.CallCommon, name string) bool {
	m := ssaread.CalledFunc(common)
	return m != nil && m.Name() == name && m.Pkg() != nil && builderModules[m.Pkg().Path()] && m.Signature().Recv() != nil
}

// collectedReplies reads a slice that the code fills with the keys of
// KEYS or SCAN replies of one call, and nothing else: the pages of a
// cursor, or the replies of each node of a cluster,
//
//	var keys []string
//	for _, node := range c.Nodes() {
//		entry, _ := node.Do(ctx, node.B().Scan().Cursor(0).Match("sess:*").Build()).AsScanEntry()
//		keys = append(keys, entry.Elements...)
//	}
//
// read as the keys of that reply. Anything else appended (a key of the
// code's own), or a start that is not empty, leaves the slice unread. The
// slice may be a variable that closures append to (the callbacks of
// go-redis's ForEachMaster), when nothing else can write it.
func collectedReplies(ev *eval.Evaluator, v ssa.Value) (each []keymodel.Key, of string, ok bool) {
	found := false
	seen := map[ssa.Value]bool{}
	var collected func(v ssa.Value) bool
	collected = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			return v.IsNil()
		case *ssa.MakeSlice:
			n, isConst := ssaread.ConstInt(v.Len)
			return isConst && n == 0
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !collected(e) {
					return false
				}
			}
			return len(v.Edges) > 0
		case *ssa.UnOp: // a variable the callbacks of each master append to
			cell := rootCell(v)
			if cell == nil {
				return false
			}
			if seen[cell] {
				return true
			}
			seen[cell] = true
			stored, ok := storesInto(cell, 0)
			for _, st := range stored {
				ok = ok && collected(st)
			}
			return ok
		case *ssa.Call:
			if !ssaread.IsBuiltin(v.Call, "append") || len(v.Call.Args) != 2 {
				return false
			}
			e, o, isReply := oneReply(ev, v.Call.Args[1])
			if !isReply || found && o != of {
				return false
			}
			each, of, found = e, o, true
			return collected(v.Call.Args[0])
		}
		return false
	}
	if !collected(v) || !found {
		return nil, "", false
	}
	return each, of, true
}

// globTemplate is the keys a MATCH pattern can match: its text up to the
// first glob ('*', '?', '['), then one part that differs from one key to
// the next. A pattern with no glob matches itself. An empty pattern (SCAN
// without MATCH) matches any key.
func globTemplate(pattern keymodel.Key, batch string) keymodel.Key {
	var out keymodel.Key
	for _, p := range pattern {
		if p.Unknown {
			out = append(out, p)
			continue
		}
		if i := strings.IndexAny(p.Text, "*?["); i >= 0 {
			out = keymodel.Concat(out, keymodel.TextKey(p.Text[:i]))
			return keymodel.Concat(out, keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: "match(" + batch + ")", Show: p.Text[i:], NoBrace: true, NonEmpty: true}, batch)))
		}
		out = keymodel.Concat(out, keymodel.Key{p})
	}
	if len(out) == 0 {
		return keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: "match(" + batch + ")", Show: "*", NoBrace: true, NonEmpty: true}, batch))
	}
	return out
}

// maxCellDepth bounds the closures within closures rootCell and storesInto
// follow.
const maxCellDepth = 4

// rootCell is the local variable a load reads, through the free variables
// of the closures that capture it; nil for any other load.
func rootCell(load *ssa.UnOp) *ssa.Alloc {
	if load.Op != token.MUL {
		return nil
	}
	v := load.X
	for range maxCellDepth {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x
		case *ssa.FreeVar:
			v = bindingOf(x)
		default:
			return nil
		}
	}
	return nil
}

// bindingOf is the value the enclosing function gives a closure's free
// variable; nil when the closure is made elsewhere or more than once.
func bindingOf(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	index := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			index = i
		}
	}
	var found ssa.Value
	if fn.Parent() == nil || index < 0 {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if found != nil {
					return nil
				}
				found = mc.Bindings[index]
			}
		}
	}
	return found
}

// storesInto lists the values stored into cell (a local variable, or a
// closure's free variable bound to it), in its function and in the
// closures that capture it; ok is false when anything but a load, a store
// or a capture uses it (its address passed on).
func storesInto(cell ssa.Value, depth int) (stored []ssa.Value, ok bool) {
	if depth > maxCellDepth {
		return nil, false
	}
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != cell {
				return nil, false
			}
			stored = append(stored, ref.Val)
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil, false
			}
		case *ssa.MakeClosure:
			fn, isFunc := ref.Fn.(*ssa.Function)
			if !isFunc {
				return nil, false
			}
			for i, b := range ref.Bindings {
				if b != cell {
					continue
				}
				more, ok := storesInto(fn.FreeVars[i], depth+1)
				if !ok {
					return nil, false
				}
				stored = append(stored, more...)
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return stored, true
}
