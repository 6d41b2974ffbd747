// Package luascript reads the Lua of a Redis script, with a real Lua parser
// (github.com/yuin/gopher-lua/parse), for the keys it touches: every
// redis.call, redis.pcall and server.call (Valkey's name) of a command with
// keys (by the command table from the server's key specs), each key as a
// concatenation of known text, KEYS[i], ARGV[i] and values the reader does
// not follow.
package luascript

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/crossslot/crossslot/internal/commands"
)

// A Script is what a script's Lua does with keys.
type Script struct {
	Flags    []string // from a first line "#!lua flags=a,b"
	Calls    []Call   // the redis.call-like calls of commands with keys
	KeyReads []Read   // every KEYS[n] with a constant n
	// Lines are every redis.call-like call of a constant command, keys or
	// not, as a command line: its name (upper case) first, then
	// the arguments the script writes as constants (SELECT 2, KEYS, SCAN).
	Lines []Line
}

// A Line is one command a script sends, as a command line.
type Line struct {
	Line int // 1-based, in the script
	Argv []commands.Arg
}

// A Call is one command the script sends.
type Call struct {
	Line    int // 1-based, in the script
	Command string
	Keys    []Key
}

// A Read is a KEYS[N] the script reads.
type Read struct {
	Line, N int
}

// A Key is a key expression: its pieces in order.
type Key []Piece

// A Piece is known text, KEYS[Key], KEYS[i] with an index the reader does
// not fix (AnyKey), ARGV[Arg] or (Unknown) anything else, with the name of
// the Lua variable it was read from, if any (a loop's id, a local set from
// redis.call), and, for a value the script read from Redis, the command
// that read it (Data: a key name stored in a hash or a list).
type Piece struct {
	Text    string
	Key     int
	AnyKey  bool
	Arg     int
	Unknown bool
	Name    string
	Data    string
}

// ReadFromData is the command by which the script read a value of the key
// from Redis (such as HGET), "" when it read none.
func (k Key) ReadFromData() string {
	for _, p := range k {
		if p.Data != "" {
			return p.Data
		}
	}
	return ""
}

// Declared reports whether the key is exactly one of KEYS, and which (0 when
// the index is not fixed, as in a loop over KEYS).
func (k Key) Declared() (int, bool) {
	if len(k) == 1 && (k[0].Key > 0 || k[0].AnyKey) {
		return k[0].Key, true
	}
	return 0, false
}

// Derived reports whether the key is built from KEYS[i] with more around it.
func (k Key) Derived() bool {
	if _, ok := k.Declared(); ok {
		return false
	}
	for _, p := range k {
		if p.Key > 0 {
			return true
		}
	}
	return false
}

// String shows the key as Lua: 'text' .. KEYS[1] .. ARGV[2] .. <id>, an
// unknown value read from a variable by its name in angle brackets (as
// unknown parts are shown everywhere), any other unknown value as ?.
func (k Key) String() string {
	var s []string
	for _, p := range k {
		switch {
		case p.Key > 0:
			s = append(s, "KEYS["+strconv.Itoa(p.Key)+"]")
		case p.AnyKey:
			s = append(s, "KEYS[?]")
		case p.Arg > 0:
			s = append(s, "ARGV["+strconv.Itoa(p.Arg)+"]")
		case p.Unknown && p.Name != "":
			s = append(s, "<"+p.Name+">")
		case p.Unknown:
			s = append(s, "?")
		default:
			s = append(s, strconv.Quote(p.Text))
		}
	}
	return strings.Join(s, " .. ")
}

// Parse reads a script.
func Parse(src string) (*Script, error) {
	s := &Script{}
	if first, _, _ := strings.Cut(src, "\n"); strings.HasPrefix(first, "#!") {
		for _, f := range strings.Fields(first) {
			if v, ok := strings.CutPrefix(f, "flags="); ok {
				s.Flags = strings.Split(v, ",")
			}
		}
		src = "--" + src // Lua 5.1 has no shebang; the line stays, as a comment
	}
	chunk, err := parse.Parse(strings.NewReader(src), "script")
	if err != nil {
		return nil, err
	}
	r := &reader{script: s, locals: map[string]ast.Expr{}, assigned: map[string]int{},
		funcs: map[string]*ast.FunctionExpr{}, inlining: map[*ast.FunctionExpr]bool{}}
	walk(reflect.ValueOf(chunk), func(n any) bool { r.assignments(n); return true })
	r.findFunctions()
	walk(reflect.ValueOf(chunk), r.visit)
	return s, nil
}

// HasFlag reports a flag of the script's shebang line.
func (s *Script) HasFlag(name string) bool {
	for _, f := range s.Flags {
		if f == name {
			return true
		}
	}
	return false
}

type reader struct {
	script   *Script
	locals   map[string]ast.Expr // locals assigned once, by name
	assigned map[string]int
	// funcs are the script's functions by name (local function f, function
	// f, local f = function), read where they are called, with the keys
	// they are called with (params); inlining guards against recursion.
	funcs    map[string]*ast.FunctionExpr
	params   map[string]Key
	inlining map[*ast.FunctionExpr]bool
	globals  map[string]*ast.FunctionExpr
}

// assignments records the locals a key may be read through.
func (r *reader) assignments(n any) {
	switch n := n.(type) {
	case *ast.LocalAssignStmt:
		for i, name := range n.Names {
			r.assigned[name]++
			if len(n.Exprs) == len(n.Names) {
				r.locals[name] = n.Exprs[i]
			}
		}
	case *ast.AssignStmt:
		for _, lhs := range n.Lhs {
			if id, ok := lhs.(*ast.IdentExpr); ok {
				r.assigned[id.Value]++
			}
		}
	case *ast.FuncDefStmt:
		if id, ok := n.Name.Func.(*ast.IdentExpr); ok && n.Name.Receiver == nil && n.Name.Method == "" {
			r.assigned[id.Value]++
			if r.globals == nil {
				r.globals = map[string]*ast.FunctionExpr{}
			}
			r.globals[id.Value] = n.Func
		}
	}
}

// findFunctions names the functions defined once: local function f,
// local f = function, function f.
func (r *reader) findFunctions() {
	for name, e := range r.locals {
		if fn, ok := e.(*ast.FunctionExpr); ok && r.assigned[name] == 1 {
			r.funcs[name] = fn
		}
	}
	for name, fn := range r.globals {
		if r.assigned[name] == 1 {
			r.funcs[name] = fn
		}
	}
}

// isNamed reports a function the reader reads where it is called.
func (r *reader) isNamed(fn *ast.FunctionExpr) bool {
	for _, f := range r.funcs {
		if f == fn {
			return true
		}
	}
	return false
}

func (r *reader) visit(n any) bool {
	switch n := n.(type) {
	case *ast.AttrGetExpr:
		if i, ok := index(n, "KEYS"); ok {
			r.script.KeyReads = append(r.script.KeyReads, Read{Line: n.Line(), N: i})
		}
	case *ast.FunctionExpr:
		// A named function's body is read where it is called, with the
		// keys it is given.
		return r.inlining[n] || !r.isNamed(n)
	case *ast.FuncCallExpr:
		r.call(n)
		r.callFunction(n)
	case *ast.GenericForStmt:
		return !r.loopOverKeys(n)
	}
	return true
}

// loopOverKeys reads the body of for _, k in ipairs(KEYS) (or pairs) with
// k each of KEYS in turn: a declared key. It reports whether it read it.
func (r *reader) loopOverKeys(n *ast.GenericForStmt) bool {
	if len(n.Names) < 2 || len(n.Exprs) != 1 || !overKeys(n.Exprs[0]) {
		return false
	}
	outer := r.params
	r.params = map[string]Key{}
	for name, k := range outer {
		r.params[name] = k
	}
	r.params[n.Names[0]] = Key{{Unknown: true, Name: n.Names[0]}}
	r.params[n.Names[1]] = Key{{AnyKey: true}}
	for _, stmt := range n.Stmts {
		walk(reflect.ValueOf(stmt), r.visit)
	}
	r.params = outer
	return true
}

// callFunction reads the body of a script's own function where it is
// called, each parameter the key its argument is: in
//
//	local function bump(k) redis.call('INCR', k) end
//	bump(KEYS[2])
//
// INCR's key is KEYS[2].
func (r *reader) callFunction(n *ast.FuncCallExpr) {
	id, ok := n.Func.(*ast.IdentExpr)
	if !ok || n.Receiver != nil {
		return
	}
	fn := r.funcs[id.Value]
	if fn == nil || r.inlining[fn] || len(r.inlining) > 8 {
		return
	}
	params := map[string]Key{}
	for i, name := range fn.ParList.Names {
		if i < len(n.Args) {
			params[name] = r.key(n.Args[i], 0)
		} else {
			params[name] = Key{{Unknown: true, Name: name}}
		}
	}
	outer := r.params
	r.params, r.inlining[fn] = params, true
	for _, stmt := range fn.Stmts {
		walk(reflect.ValueOf(stmt), r.visit)
	}
	r.params = outer
	delete(r.inlining, fn)
}

// call reads redis.call('CMD', ...), redis.pcall and server.call, also
// through a local alias (local rcall = redis.call).
func (r *reader) call(n *ast.FuncCallExpr) {
	fn, ok := r.resolve(n.Func).(*ast.AttrGetExpr)
	if !ok {
		return
	}
	obj, ok1 := fn.Object.(*ast.IdentExpr)
	name, ok2 := fn.Key.(*ast.StringExpr)
	if !ok1 || !ok2 || (obj.Value != "redis" && obj.Value != "server") || (name.Value != "call" && name.Value != "pcall") || len(n.Args) == 0 {
		return
	}
	cmdName, ok := n.Args[0].(*ast.StringExpr)
	if !ok {
		return
	}
	argv := make([]commands.Arg, len(n.Args))
	for i, a := range n.Args {
		switch a := r.resolve(a).(type) {
		case *ast.StringExpr:
			argv[i] = commands.Arg{Text: a.Value, Known: true}
		case *ast.NumberExpr:
			argv[i] = commands.Arg{Text: a.Value, Known: true}
		}
	}
	line := append([]commands.Arg{{Text: strings.ToUpper(cmdName.Value), Known: true}}, argv[1:]...)
	r.script.Lines = append(r.script.Lines, Line{Line: n.Line(), Argv: line})
	cmd, ok := commands.Lookup(cmdName.Value)
	if !ok {
		return
	}
	pos, ok := cmd.Keys(argv)
	if !ok {
		return
	}
	c := Call{Line: n.Line(), Command: strings.ToUpper(cmdName.Value)}
	for _, p := range pos {
		c.Keys = append(c.Keys, r.key(n.Args[p], 0))
	}
	r.script.Calls = append(r.script.Calls, c)
}

// resolve reads through a local assigned once (not a parameter of the
// function being read).
func (r *reader) resolve(e ast.Expr) ast.Expr {
	for range 8 {
		id, ok := e.(*ast.IdentExpr)
		if !ok {
			return e
		}
		if _, param := r.params[id.Value]; param || r.assigned[id.Value] != 1 || r.locals[id.Value] == nil {
			return e
		}
		e = r.locals[id.Value]
	}
	return e
}

// key reads a key expression.
func (r *reader) key(e ast.Expr, depth int) Key {
	if depth > 16 {
		return Key{{Unknown: true}}
	}
	if id, ok := e.(*ast.IdentExpr); ok {
		if k, param := r.params[id.Value]; param {
			return k
		}
		if call, ok := r.resolve(id).(*ast.FuncCallExpr); ok {
			if cmd := r.redisCommand(call); cmd != "" {
				return Key{{Unknown: true, Name: id.Value, Data: cmd}} // a name read from Redis
			}
		}
	}
	switch e := r.resolve(e).(type) {
	case *ast.StringExpr:
		return Key{{Text: e.Value}}
	case *ast.NumberExpr:
		return Key{{Text: e.Value}}
	case *ast.StringConcatOpExpr:
		return append(r.key(e.Lhs, depth+1), r.key(e.Rhs, depth+1)...)
	case *ast.AttrGetExpr:
		if i, ok := index(e, "KEYS"); ok {
			return Key{{Key: i}}
		}
		if i, ok := index(e, "ARGV"); ok {
			return Key{{Arg: i}}
		}
		if id, ok := e.Object.(*ast.IdentExpr); ok && id.Value == "KEYS" {
			return Key{{AnyKey: true}}
		}
	}
	if id, ok := e.(*ast.IdentExpr); ok {
		return Key{{Unknown: true, Name: id.Value}}
	}
	return Key{{Unknown: true}}
}

// redisCommand is the command a redis.call-like call sends, "" for any
// other call.
func (r *reader) redisCommand(n *ast.FuncCallExpr) string {
	fn, ok := r.resolve(n.Func).(*ast.AttrGetExpr)
	if !ok || len(n.Args) == 0 {
		return ""
	}
	obj, ok1 := fn.Object.(*ast.IdentExpr)
	name, ok2 := fn.Key.(*ast.StringExpr)
	cmd, ok3 := n.Args[0].(*ast.StringExpr)
	if !ok1 || !ok2 || !ok3 || (obj.Value != "redis" && obj.Value != "server") || (name.Value != "call" && name.Value != "pcall") {
		return ""
	}
	return strings.ToUpper(cmd.Value)
}

// overKeys reports ipairs(KEYS) or pairs(KEYS).
func overKeys(e ast.Expr) bool {
	call, ok := e.(*ast.FuncCallExpr)
	if !ok || call.Receiver != nil || len(call.Args) != 1 {
		return false
	}
	fn, ok1 := call.Func.(*ast.IdentExpr)
	arg, ok2 := call.Args[0].(*ast.IdentExpr)
	return ok1 && ok2 && (fn.Value == "ipairs" || fn.Value == "pairs") && arg.Value == "KEYS"
}

// index reads TABLE[n] with a constant n.
func index(e *ast.AttrGetExpr, table string) (int, bool) {
	id, ok := e.Object.(*ast.IdentExpr)
	num, ok2 := e.Key.(*ast.NumberExpr)
	if !ok || !ok2 || id.Value != table {
		return 0, false
	}
	i, err := strconv.Atoi(num.Value)
	return i, err == nil && i > 0
}

// walk calls visit on every node of the syntax tree under v, and on the
// nodes under a node when visit returns true for it.
func walk(v reflect.Value, visit func(any) bool) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), visit)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if visit(v.Interface()) {
			walk(v.Elem(), visit)
		}
	case reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), visit)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), visit)
			}
		}
	}
}
