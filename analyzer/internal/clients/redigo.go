package clients

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// redigo (github.com/gomodule/redigo) sends command lines: Do and Send take
// the command's name and its arguments, read with the command table from the
// server's key specs (internal/commands). redis.NewScript(keyCount, src)
// scripts take their first keyCount arguments as keys.
//
// redigo has no cluster client of its own: its calls talk to one node and
// are skipped, like *redis.Client's, unless the package reaches a cluster
// library built on it (redisc, through its imports), or the configuration
// includes single-node clients.

// redigoPaths are redigo's package, under its path and the one it had
// before (github.com/garyburd/redigo, the same API, still imported by
// older services).
var redigoPaths = map[string]bool{"github.com/gomodule/redigo/redis": true, "github.com/garyburd/redigo/redis": true}

// isRedigoNamed reports whether t is redigo's type of that name, under
// either path.
func isRedigoNamed(t types.Type, name string) bool {
	for path := range redigoPaths {
		if ssaread.IsNamed(t, path, name) {
			return true
		}
	}
	return false
}

// IsRedigoConn reports redigo's Conn, under either path.
func IsRedigoConn(t types.Type) bool { return isRedigoNamed(t, "Conn") }

// RedigoClusterLibraries are cluster clients built on redigo's Conn.
var RedigoClusterLibraries = map[string]bool{"github.com/mna/redisc": true}

// redigoCommands are Conn's methods that send a command line, by the index
// of the command's name among their parameters.
var redigoCommands = map[string]int{"Do": 0, "Send": 0, "DoContext": 1, "DoWithTimeout": 1}

// redigoScripts are Script's methods that run it, by the index of
// keysAndArgs among their parameters.
var redigoScripts = map[string]int{"Do": 1, "Send": 1, "SendHash": 1, "DoContext": 2}

// redigoCall recognizes a redigo command or script call.
func redigoCall(common *ssa.CallCommon, ev *eval.Evaluator) *Site {
	m := ssaread.CalledFunc(common)
	if m == nil || m.Pkg() == nil || !redigoPaths[m.Pkg().Path()] || m.Signature().Recv() == nil {
		return nil
	}
	site := NewSite(ev, common, m.Signature())
	site.Library = Redigo
	if isRedigoNamed(m.Signature().Recv().Type(), "Script") {
		i, ok := redigoScripts[m.Name()]
		if !ok {
			return nil
		}
		site.Method, site.Rule = "Script."+m.Name(), redigoScriptKeys(i)
		return site
	}
	i, ok := redigoCommands[m.Name()]
	if !ok {
		return nil
	}
	site.Method, site.Rule = m.Name(), redigoCommandKeys(i)
	site.line = func() ([]eval.Element, bool) { return redigoLine(site, i) }
	if name, ok := ssaread.ConstString(site.Common.Args[i+site.RecvArgs()]); ok {
		site.Method, site.CommandLine = strings.ToUpper(name), true // messages name the command
	}
	return site
}

// redigoCommandKeys reads Do(name, args...): the command line's keys.
func redigoCommandKeys(nameAt int) KeyRule {
	return func(c *Site) []keymodel.Arg {
		line, ok := redigoLine(c, nameAt)
		if !ok {
			return familyLine(c, nameAt+c.RecvArgs())
		}
		return commandKeys(c, line)
	}
}

// redigoLine is the command line of Do(name, args...), name first.
func redigoLine(c *Site, nameAt int) ([]eval.Element, bool) {
	j := nameAt + c.RecvArgs()
	if j+1 >= len(c.Common.Args) {
		return nil, false
	}
	rest, ok := c.ElementsOfArg(j + 1)
	if !ok {
		return nil, false
	}
	return append([]eval.Element{{Value: c.Common.Args[j], At: c.ArgPos(j)}}, rest...), true
}

// redigoScriptKeys reads script.Do(c, keysAndArgs...): the first keyCount
// values, keyCount from the redis.NewScript call that made the script.
func redigoScriptKeys(argsAt int) KeyRule {
	return func(c *Site) []keymodel.Arg {
		j := argsAt + c.RecvArgs()
		n, ok := scriptKeyCount(c.Eval, c.Receiver())
		if !ok {
			// How many of the values are keys is decided at run time.
			return []keymodel.Arg{{Unread: c.ArgText(j, c.Common.Args[j]), At: c.ArgPos(j)}}
		}
		elems, whole := c.leadingElementsOfArg(j)
		switch {
		case n <= len(elems):
			return c.KeyArgs(elems[:n])
		case whole:
			return nil // fewer values than keys
		}
		return []keymodel.Arg{{Unread: c.ArgText(j, c.Common.Args[j]), At: c.ArgPos(j)}}
	}
}

// scriptKeyCount finds the constant keyCount of redis.NewScript(keyCount,
// src) behind a script value: the call itself, or an unexported package
// variable that only the package initializer sets (see stores).
func scriptKeyCount(ev *eval.Evaluator, v ssa.Value) (int, bool) {
	call, fn, ok := ev.MadeBy(v)
	if !ok || fn.Pkg == nil || !redigoPaths[fn.Pkg.Pkg.Path()] || fn.Name() != "NewScript" {
		return 0, false
	}
	n, ok := ssaread.ConstInt(call.Call.Args[0])
	return int(n), ok && n >= 0
}

// RedigoPoolOf is the pool a redigo connection value comes from: the
// receiver of (*Pool).Get, or of (*Pool).GetContext's connection.
func RedigoPoolOf(v ssa.Value) (ssa.Value, bool) {
	var call *ssa.Call
	method := "Get"
	switch v := v.(type) {
	case *ssa.Call:
		call = v
	case *ssa.Extract:
		if v.Index != 0 {
			return nil, false
		}
		call, _ = v.Tuple.(*ssa.Call)
		method = "GetContext"
	}
	if call == nil {
		return nil, false
	}
	fn := ssaread.CalledFunc(&call.Call)
	if fn == nil || fn.Name() != method || fn.Signature().Recv() == nil || !isRedigoNamed(fn.Signature().Recv().Type(), "Pool") {
		return nil, false
	}
	return ssaread.ReceiverValue(&call.Call), true
}

// redigoDials are redigo's functions that dial one server.
var redigoDials = map[string]bool{"Dial": true, "DialContext": true, "DialURL": true, "DialURLContext": true, "DialTimeout": true}

// MakesOneServerPool reports a redigo pool each of whose connections
// redigo dials to one server: a &redis.Pool{Dial: f} literal (or
// DialContext), or redis.NewPool(f, n), where f returns only connections
// that redis.Dial, DialContext, DialURL, DialURLContext or DialTimeout
// makes. Such a connection is a *redis.Client's peer: one server, where
// keys on different slots are legal. redisc dials its nodes' pools so too,
// but hands out its own connections, which the pools' are not.
func MakesOneServerPool(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		if !isRedigoNamed(v.Type(), "Pool") {
			return false
		}
		st, ok := v.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok {
			return false
		}
		dials := 0
		for i := range st.NumFields() {
			if name := st.Field(i).Name(); name != "Dial" && name != "DialContext" {
				continue
			}
			for _, store := range ssaread.FieldStores(v, i) {
				if !dialsOneServer(store.Val) {
					return false
				}
				dials++
			}
		}
		return dials > 0
	case *ssa.Call:
		fn := ssaread.CalledFunc(&v.Call)
		return fn != nil && fn.Pkg() != nil && redigoPaths[fn.Pkg().Path()] && fn.Name() == "NewPool" &&
			fn.Signature().Recv() == nil && len(v.Call.Args) > 0 && dialsOneServer(v.Call.Args[0])
	}
	return false
}

// dialsOneServer: f, a function value, returns only nil or the connection
// one of redigo's dial functions made.
func dialsOneServer(f ssa.Value) bool {
	if mc, ok := f.(*ssa.MakeClosure); ok {
		f = mc.Fn
	}
	fn, ok := f.(*ssa.Function)
	if !ok || len(fn.Blocks) == 0 {
		return false
	}
	dials := 0
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		switch conn := ret.Results[0].(type) {
		case *ssa.Const:
			if !conn.IsNil() {
				return false
			}
		case *ssa.Extract:
			call, ok := conn.Tuple.(*ssa.Call)
			if !ok || conn.Index != 0 {
				return false
			}
			dial := ssaread.CalledFunc(&call.Call)
			if dial == nil || dial.Pkg() == nil || !redigoPaths[dial.Pkg().Path()] || !redigoDials[dial.Name()] || dial.Signature().Recv() != nil {
				return false
			}
			dials++
		default:
			return false
		}
	}
	return dials > 0
}
