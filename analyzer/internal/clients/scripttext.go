package clients

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// ScriptText finds the value that holds the text of the script a client
// call runs, and the expression that writes it: go-redis Eval/EvalRO(ctx,
// script, keys) and a Script's Run/Eval/...; rueidis and valkey-go
// Lua.Exec; redigo Script.Do/Send; GLIDE's InvokeScriptWithOptions.
func ScriptText(site *Site) (ssa.Value, ast.Expr, bool) {
	switch site.Method {
	case "Eval", "EvalRO":
		if recv := site.Receiver(); recv != nil && isScriptType(recv.Type()) {
			return scriptMadeBy(site.Eval, recv)
		}
		j, v, ok := site.Param("script")
		return v, site.ArgExpr(j), ok
	case "Run", "RunRO", "EvalSha", "EvalShaRO", "Lua.Exec", "Script.Do", "Script.Send", "Script.SendHash", "Script.DoContext":
		return scriptMadeBy(site.Eval, site.Receiver())
	case "InvokeScriptWithOptions", "InvokeScript":
		// GLIDE takes the script by value: *options.NewScript(src).
		if _, v, ok := site.Param("script"); ok && site.Library == Glide {
			if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
				return scriptMadeBy(site.Eval, load.X)
			}
		}
	}
	return nil, nil, false
}

// scriptMadeBy follows a script value to the call that made it, NewScript
// (go-redis, redigo, the go-redis-compatible adapters) or NewLuaScript
// (rueidis, valkey-go), directly or
// through an unexported package variable only the initializer sets.
func scriptMadeBy(ev *eval.Evaluator, v ssa.Value) (ssa.Value, ast.Expr, bool) {
	call, fn, ok := ev.MadeBy(v)
	if !ok || ssaread.FuncPackage(fn) == nil || !strings.HasPrefix(fn.Name(), "New") || !strings.Contains(fn.Name(), "Script") {
		return nil, nil, false
	}
	if path := ssaread.FuncPackage(fn).Path(); !IsClientCode(path) && !IsAdapter(path) {
		return nil, nil, false
	}
	site := SiteOf(ev, &call.Call)
	for j, arg := range call.Call.Args {
		if ssaread.IsString(arg.Type()) {
			return arg, site.ArgExpr(j), true
		}
	}
	return nil, nil, false
}

// ScriptArgs is the ARGV a script call passes, as far as the code fixes it:
// the string values of its args (after redigo's keys); nil when unknown.
func ScriptArgs(site *Site) [][]keymodel.Key {
	var elems []eval.Element
	var ok bool
	switch {
	case site.Library == Glide:
		if elems, ok = glideScriptArgs(site); !ok {
			return nil
		}
	case strings.HasPrefix(site.Method, "Script."):
		n, known := scriptKeyCount(site.Eval, site.Receiver())
		if elems, _ = site.leadingElementsOfArg(len(site.Common.Args) - 1); !known || n > len(elems) {
			return nil
		}
		elems = elems[n:] // ARGV as far as the code fixes it
	default:
		if elems, ok = site.ElementsOfParam("args"); !ok {
			return nil
		}
	}
	out := make([][]keymodel.Key, len(elems))
	for i, el := range elems {
		if v := ssaread.UnwrapInterface(el.Value); v != nil && ssaread.IsString(v.Type()) {
			out[i] = site.Eval.Keys(v)
		}
	}
	return out
}
