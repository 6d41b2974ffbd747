package analyzer

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
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

const redigoPath = "github.com/gomodule/redigo/redis"

// redigoClusterLibraries are cluster clients built on redigo's Conn.
var redigoClusterLibraries = map[string]bool{"github.com/mna/redisc": true}

// redigoCommands are Conn's methods that send a command line, by the index
// of the command's name among their parameters.
var redigoCommands = map[string]int{"Do": 0, "Send": 0, "DoContext": 1, "DoWithTimeout": 1}

// redigoScripts are Script's methods that run it, by the index of
// keysAndArgs among their parameters.
var redigoScripts = map[string]int{"Do": 1, "Send": 1, "SendHash": 1, "DoContext": 2}

// redigoCall recognizes a redigo command or script call.
func redigoCall(common *ssa.CallCommon, ev *evaluator) *callSite {
	m := calledFunc(common)
	if m == nil || m.Pkg() == nil || m.Pkg().Path() != redigoPath || m.Signature().Recv() == nil {
		return nil
	}
	site := newCallSite(ev, common, m.Signature())
	site.library = redigo
	if isNamed(m.Signature().Recv().Type(), redigoPath, "Script") {
		i, ok := redigoScripts[m.Name()]
		if !ok {
			return nil
		}
		site.method, site.rule = "Script."+m.Name(), redigoScriptKeys(i)
		return site
	}
	i, ok := redigoCommands[m.Name()]
	if !ok {
		return nil
	}
	site.method, site.rule = m.Name(), redigoCommandKeys(i)
	if name, ok := constString(site.common.Args[i+site.recvArgs()]); ok {
		site.method, site.commandLine = strings.ToUpper(name), true // messages name the command
	}
	return site
}

// redigoCommandKeys reads Do(name, args...): the command line's keys.
func redigoCommandKeys(nameAt int) keyRule {
	return func(c *callSite) []keyArg {
		j := nameAt + c.recvArgs()
		if j+1 >= len(c.common.Args) {
			return nil
		}
		rest, ok := c.elementsOfArg(j + 1)
		if !ok {
			return nil
		}
		line := append([]element{{value: c.common.Args[j], at: c.argPos(j)}}, rest...)
		return commandKeys(c, line)
	}
}

// redigoScriptKeys reads script.Do(c, keysAndArgs...): the first keyCount
// values, keyCount from the redis.NewScript call that made the script.
func redigoScriptKeys(argsAt int) keyRule {
	return func(c *callSite) []keyArg {
		n, ok := scriptKeyCount(c.eval, c.receiver())
		if !ok {
			return nil
		}
		elems, ok := c.elementsOfArg(argsAt + c.recvArgs())
		if !ok || n > len(elems) {
			return nil
		}
		return c.keyArgs(elems[:n])
	}
}

// scriptKeyCount finds the constant keyCount of redis.NewScript(keyCount,
// src) behind a script value: the call itself, or an unexported package
// variable that only the package initializer sets (see stores).
func scriptKeyCount(ev *evaluator, v ssa.Value) (int, bool) {
	call, fn, ok := scriptMaker(ev, v)
	if !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != redigoPath || fn.Name() != "NewScript" {
		return 0, false
	}
	n, ok := constInt(call.Call.Args[0])
	return int(n), ok && n >= 0
}

func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}
