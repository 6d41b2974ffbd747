package ssaread

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

func IsString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func ConstString(v ssa.Value) (string, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return "", false
}

func ConstInt(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	b, ok := c.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	return c.Int64(), true
}

func IsConstInt(v ssa.Value, n int64) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	got, exact := constant.Int64Val(c.Value)
	return exact && got == n
}

func UnwrapInterface(v ssa.Value) ssa.Value {
	for {
		mi, ok := v.(*ssa.MakeInterface)
		if !ok {
			return v
		}
		v = mi.X
	}
}

// SliceElements returns the elements of a slice built from a literal (or a
// variadic argument list): an array allocated in the function whose every
// element is stored exactly once, and which is otherwise only read.
func SliceElements(v ssa.Value) ([]ssa.Value, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true
	}
	s, ok := v.(*ssa.Slice)
	if !ok || s.Low != nil || s.Max != nil {
		return nil, false
	}
	alloc, ok := s.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	if s.High != nil {
		if IsConstInt(s.High, 0) && len(*alloc.Referrers()) == 1 {
			return nil, true // make([]T, 0, c) of a constant c: empty, appended to
		}
		// make([]T, n) of a constant n: SSA makes an array and slices it to
		// n, then the code fills it through the slice.
		if !IsConstInt(s.High, arr.Len()) || len(*alloc.Referrers()) != 1 {
			return nil, false
		}
		return filledByIndex(s, arr.Len())
	}
	elems := make([]ssa.Value, arr.Len())
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Slice:
			if ref != s {
				return nil, false // sliced twice: may be changed through the other
			}
		case *ssa.IndexAddr:
			idx, ok := ref.Index.(*ssa.Const)
			if !ok {
				return nil, false
			}
			i, exact := constant.Int64Val(idx.Value)
			if !exact || i < 0 || int(i) >= len(elems) {
				return nil, false
			}
			for _, use := range *ref.Referrers() {
				st, ok := use.(*ssa.Store)
				if !ok || st.Addr != ref || elems[i] != nil {
					return nil, false
				}
				elems[i] = st.Val
			}
		default:
			return nil, false
		}
	}
	// The slice itself may be read (indexed and loaded, ranged over, passed
	// on), not written through: a store into it, or a sub-slice that may be
	// written, makes the literal's contents a guess.
	for _, ref := range *s.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
			for _, use := range *ref.Referrers() {
				if load, ok := use.(*ssa.UnOp); !ok || load.Op != token.MUL {
					return nil, false
				}
			}
		case *ssa.Slice:
			return nil, false
		case *ssa.Call:
			if IsBuiltin(ref.Call, "copy") && ref.Call.Args[0] == s {
				return nil, false
			}
		}
	}
	for _, el := range elems {
		if el == nil {
			return nil, false
		}
	}
	return elems, true
}

func IsBuiltin(c ssa.CallCommon, name string) bool {
	b, ok := c.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

// ParamIndex is the 1-based index of p among its function's parameters.
func ParamIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i + 1
		}
	}
	return 0
}

func FieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return "?"
}

func IsEmbedded(t types.Type, i int) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && i < st.NumFields() && st.Field(i).Anonymous()
}

func IsNamed(t types.Type, path, name string) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// filledByIndex reads a slice made with a constant length (SSA makes it an
// array, sliced) and filled by constant indices before it is used, in
// straight-line code:
//
//	keys := make([]string, 2)
//	keys[0], keys[1] = a, b
//
// Every element is stored once, in the block that makes the slice; every
// other use comes after the stores (later in that block, or in a block it
// dominates) and only reads it.
func filledByIndex(s *ssa.Slice, length int64) ([]ssa.Value, bool) {
	if length <= 0 || length > 64 {
		return nil, false
	}
	block := s.Block()
	position := map[ssa.Instruction]int{}
	for i, instr := range block.Instrs {
		position[instr] = i
	}
	elems := make([]ssa.Value, length)
	lastStore := -1
	var reads []ssa.Instruction
	for _, ref := range *s.Referrers() {
		ia, isIndex := ref.(*ssa.IndexAddr)
		if !isIndex {
			reads = append(reads, ref)
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok {
			return nil, false
		}
		i, exact := constant.Int64Val(idx.Value)
		if !exact || i < 0 || i >= length {
			return nil, false
		}
		for _, use := range *ia.Referrers() {
			switch use := use.(type) {
			case *ssa.Store:
				if use.Addr != ia || elems[i] != nil || use.Block() != block {
					return nil, false
				}
				elems[i] = use.Val
				lastStore = max(lastStore, position[use])
			case *ssa.UnOp:
				if use.Op != token.MUL {
					return nil, false
				}
				reads = append(reads, use) // a read of an element
			default:
				return nil, false
			}
		}
	}
	for _, read := range reads {
		switch read := read.(type) {
		case *ssa.Slice:
			return nil, false // a sub-slice may be written
		case *ssa.Call:
			if IsBuiltin(read.Call, "append") || IsBuiltin(read.Call, "copy") && read.Call.Args[0] == ssa.Value(s) {
				return nil, false
			}
		}
		if b := read.Block(); b == block && position[read] < lastStore || b != block && !block.Dominates(b) {
			return nil, false // read before it is filled, or on another path
		}
	}
	for _, el := range elems {
		if el == nil {
			return nil, false
		}
	}
	return elems, true
}

// IsAppend reports a call that appends its second argument's elements to
// its first and returns the result: the builtin append, or redigo's
// Args.Add (return append(args, value...)).
func IsAppend(call ssa.CallCommon) bool {
	if IsBuiltin(call, "append") {
		return true
	}
	fn := call.StaticCallee()
	if fn == nil || fn.Name() != "Add" || fn.Signature.Recv() == nil {
		return false
	}
	recv := fn.Signature.Recv().Type()
	return IsNamed(recv, "github.com/gomodule/redigo/redis", "Args") || IsNamed(recv, "github.com/garyburd/redigo/redis", "Args")
}

// FlatArg reads redigo's args.AddFlat(v) of a slice of strings, byte
// slices or numbers, which appends v's elements as Add(v...) does, or of a
// map of them, which appends each key then its value (a struct is
// flattened into field names and values, not read here): v, and ok.
func FlatArg(call ssa.CallCommon) (ssa.Value, bool) {
	fn := call.StaticCallee()
	if fn == nil || fn.Name() != "AddFlat" || fn.Signature.Recv() == nil || len(call.Args) != 2 {
		return nil, false
	}
	recv := fn.Signature.Recv().Type()
	if !IsNamed(recv, "github.com/gomodule/redigo/redis", "Args") && !IsNamed(recv, "github.com/garyburd/redigo/redis", "Args") {
		return nil, false
	}
	v := UnwrapInterface(call.Args[1])
	switch t := v.Type().Underlying().(type) {
	case *types.Slice:
		return v, flatScalar(t.Elem())
	case *types.Map:
		return v, flatScalar(t.Key()) && flatScalar(t.Elem())
	}
	return nil, false
}

// flatScalar: a type AddFlat appends as one argument (a string, a number,
// a byte slice).
func flatScalar(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// ConstText is a string or integer constant as text (an integer in
// decimal), as a command line or a function's constant argument holds it.
func ConstText(v ssa.Value) (string, bool) {
	if s, ok := ConstString(v); ok {
		return s, true
	}
	if n, ok := ConstInt(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	return "", false
}

// FieldStores are the stores into field number field of the struct alloc
// holds, through that field's addresses: a composite literal's field, and
// each later assignment to it.
func FieldStores(alloc *ssa.Alloc, field int) []*ssa.Store {
	var out []*ssa.Store
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == ssa.Value(fa) {
				out = append(out, st)
			}
		}
	}
	return out
}
