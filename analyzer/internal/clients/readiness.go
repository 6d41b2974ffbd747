package clients

import (
	"fmt"
	"go/constant"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Besides CROSSSLOT, a cluster refuses or quietly does differently what
// code written for one server may do (checked on a three-master Redis
// 7.0.15 cluster with go-redis v9.23.0):
//
//   - it has database 0 only: SELECT n, MOVE, SWAPDB and COPY ... DB n
//     are refused; a universal client made for several addresses is a
//     cluster client and drops its DB option, writing to database 0;
//   - SORT's BY with a pattern and GET read keys on any slot: refused;
//   - keyspace-wide commands (KEYS, SCAN, FLUSHDB, FLUSHALL, RANDOMKEY) on
//     a cluster client run on one node: they see or clear that node's keys
//     only, without an error.

// A ProblemKind is one way a call breaks on a cluster.
type ProblemKind int

const (
	OtherDatabase   ProblemKind = iota // SELECT n, MOVE, SWAPDB, COPY ... DB n: refused
	DroppedDatabase                    // a cluster client made with a DB option: ignored
	SortPattern                        // SORT BY pattern, SORT GET: refused
	OneNode                            // KEYS, SCAN, FLUSHDB...: one node's keys only
)

// A ClusterProblem is what one call does that a cluster refuses or does
// differently.
type ClusterProblem struct {
	Kind ProblemKind
	// What names the command or option at fault, for messages: "SELECT 2",
	// "MOVE", `BY "weight_*"` (of SORT), "KEYS", "DB 2".
	What string
	// Refusal is the cluster's error, "" when it does not refuse.
	Refusal string
	At      keymodel.Range
	// Whatever says the command is the problem whatever its arguments
	// (KEYS, MOVE): code that forwards it (a library's wrapper, a mock)
	// cannot know which client it will run on.
	Whatever bool
	// Undecided: the argument that decides (a database, a SORT pattern) is
	// not fixed by the code; not reported, counted.
	Undecided bool
}

// ClusterSite says whether a call is a site of the readiness checks, and of
// which: a command that needs a database, a SORT, a keyspace-wide command.
func ClusterSite(c *Site) (ProblemKind, bool) {
	name := ""
	switch {
	case c.line != nil:
		if line, ok := c.line(); ok && len(line) > 0 {
			name, _ = ssaread.ConstString(ssaread.UnwrapInterface(line[0].Value))
		}
	case c.built != nil:
		name = c.built.name
	case c.Library == GoRedis && c.Method == "Do":
		if elems, ok := c.ElementsOfParam("args"); ok && len(elems) > 0 {
			name, _ = ssaread.ConstString(ssaread.UnwrapInterface(elems[0].Value))
		}
	case c.Library == GoRedis:
		name = goRedisCommands[c.Method]
		if n, ok := oneNodeCommands[c.Method]; ok {
			name = n
		}
	}
	switch strings.ToUpper(name) {
	case "SELECT", "MOVE", "SWAPDB", "COPY":
		return OtherDatabase, true
	case "SORT", "SORT_RO", "SORTRO":
		return SortPattern, true
	case "KEYS", "SCAN", "RANDOMKEY", "FLUSHDB", "FLUSHALL":
		return OneNode, true
	}
	return 0, false
}

// goRedisCommands names the commands of go-redis's methods the readiness
// checks read (besides oneNodeCommands).
var goRedisCommands = map[string]string{
	"Select": "SELECT", "Move": "MOVE", "Copy": "COPY",
	"Sort": "SORT", "SortRO": "SORT_RO", "SortStore": "SORT", "SortInterfaces": "SORT",
}

// oneNodeCommands run on one node of a cluster client, by go-redis method
// and by command name.
var oneNodeCommands = map[string]string{
	"Keys": "KEYS", "Scan": "SCAN", "ScanType": "SCAN", "RandomKey": "RANDOMKEY",
	"FlushDB": "FLUSHDB", "FlushDBAsync": "FLUSHDB", "FlushAll": "FLUSHALL", "FlushAllAsync": "FLUSHALL",
}

// ClusterProblems reads what a call does that a cluster refuses or does
// differently: a go-redis method, a command line (go-redis Do, redigo Do
// and Send, the builder's Arbitrary), or a rueidis or valkey-go built
// command.
func ClusterProblems(c *Site) []ClusterProblem {
	if c.line != nil {
		if line, ok := c.line(); ok && len(line) > 0 {
			return commandLineProblems(c, line)
		}
		return nil
	}
	if c.built != nil {
		return builtProblems(c, *c.built)
	}
	if c.Library != GoRedis {
		return nil
	}
	switch c.Method {
	case "Do":
		if elems, ok := c.ElementsOfParam("args"); ok && len(elems) > 0 {
			return commandLineProblems(c, elems)
		}
	case "Select":
		n, at, ok := c.intParam("index")
		switch {
		case !ok:
			return []ClusterProblem{{Kind: OtherDatabase, Undecided: true}}
		case n != 0:
			return []ClusterProblem{{Kind: OtherDatabase, What: fmt.Sprintf("SELECT %d", n), Refusal: "ERR SELECT is not allowed in cluster mode", At: at}}
		}
	case "Move":
		return []ClusterProblem{{Kind: OtherDatabase, What: "MOVE", Refusal: "ERR MOVE is not allowed in cluster mode", At: c.CallPos(), Whatever: true}}
	case "Copy":
		n, at, ok := c.intParam("db")
		switch {
		case !ok:
			return []ClusterProblem{{Kind: OtherDatabase, Undecided: true}}
		case n != 0:
			return []ClusterProblem{{Kind: OtherDatabase, What: fmt.Sprintf("COPY ... DB %d", n), Refusal: "ERR Copying to another database is not allowed in cluster mode", At: at}}
		}
	case "Sort", "SortRO", "SortStore", "SortInterfaces":
		return sortProblems(c)
	default:
		if name, ok := oneNodeCommands[c.Method]; ok {
			return []ClusterProblem{{Kind: OneNode, What: name, At: c.CallPos(), Whatever: true}}
		}
	}
	return nil
}

// sortProblems reads a Sort's By and Get where the call writes them.
func sortProblems(c *Site) []ClusterProblem {
	var out []ClusterProblem
	by, ok := c.fieldOfParam("sort", "By")
	if !ok {
		return []ClusterProblem{{Kind: SortPattern, Undecided: true}} // a Sort the call does not build
	}
	switch pattern, known := ssaread.ConstString(by.Value); {
	case !known:
		out = append(out, ClusterProblem{Kind: SortPattern, Undecided: true})
	case strings.Contains(pattern, "*"):
		out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("BY %q", pattern), Refusal: "ERR BY option of SORT denied in Cluster mode.", At: by.At})
	}
	if get, ok := c.fieldOfParam("sort", "Get"); ok {
		if elems, ok := ssaread.SliceElements(get.Value); ok && len(elems) > 0 {
			pattern, _ := ssaread.ConstString(ssaread.UnwrapInterface(elems[0]))
			out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("GET %q", pattern), Refusal: "ERR GET option of SORT denied in Cluster mode.", At: get.At})
		}
	}
	return out
}

// commandLineProblems reads a command line whose name is a constant: Do(ctx,
// "SELECT", 2), Do(ctx, "SORT", k, "BY", "w_*"), Do(ctx, "KEYS", "*").
func commandLineProblems(c *Site, elems []eval.Element) []ClusterProblem {
	name, ok := ssaread.ConstString(ssaread.UnwrapInterface(elems[0].Value))
	if !ok {
		return nil
	}
	name = strings.ToUpper(name)
	arg := func(i int) (string, bool) {
		if i >= len(elems) {
			return "", false
		}
		return constText(ssaread.UnwrapInterface(elems[i].Value))
	}
	at := c.CallPos()
	switch name {
	case "SELECT":
		n, ok := arg(1)
		switch {
		case !ok:
			return []ClusterProblem{{Kind: OtherDatabase, Undecided: true}}
		case n != "0":
			return []ClusterProblem{{Kind: OtherDatabase, What: "SELECT " + n, Refusal: "ERR SELECT is not allowed in cluster mode", At: at}}
		}
	case "MOVE", "SWAPDB":
		return []ClusterProblem{{Kind: OtherDatabase, What: name, Refusal: "ERR " + name + " is not allowed in cluster mode", At: at, Whatever: true}}
	case "COPY":
		for i := 3; i+1 < len(elems); i++ {
			if kw, ok := arg(i); ok && strings.EqualFold(kw, "DB") {
				if n, ok := arg(i + 1); ok && n != "0" {
					return []ClusterProblem{{Kind: OtherDatabase, What: "COPY ... DB " + n, Refusal: "ERR Copying to another database is not allowed in cluster mode", At: at}}
				}
			}
		}
	case "SORT", "SORT_RO":
		var out []ClusterProblem
		for i := 2; i+1 < len(elems); i++ {
			kw, ok := arg(i)
			if !ok {
				return nil // a keyword the code does not fix: the line is not read
			}
			pattern, known := arg(i + 1)
			switch strings.ToUpper(kw) {
			case "BY":
				if known && strings.Contains(pattern, "*") {
					out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("BY %q", pattern), Refusal: "ERR BY option of SORT denied in Cluster mode.", At: at})
				}
				i++
			case "GET":
				out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("GET %q", pattern), Refusal: "ERR GET option of SORT denied in Cluster mode.", At: at})
				i++
			case "LIMIT":
				i += 2
			case "STORE":
				i++
			}
		}
		return out
	case "KEYS", "SCAN", "RANDOMKEY", "FLUSHDB", "FLUSHALL":
		return []ClusterProblem{{Kind: OneNode, What: name, At: at, Whatever: true}}
	}
	return nil
}

// builtProblems reads a rueidis or valkey-go built command:
// c.B().Select().Index(2), c.B().Sort().Key(k).By("w_*"), c.B().Keys()...
func builtProblems(c *Site, b builtCommand) []ClusterProblem {
	at := c.CallPos()
	arg := func(method string) (ssa.Value, bool) {
		for _, call := range b.calls {
			if fn := call.Call.StaticCallee(); fn != nil && fn.Name() == method && len(call.Call.Args) > 1 {
				return call.Call.Args[1], true
			}
		}
		return nil, false
	}
	switch b.name {
	case "SELECT":
		if v, ok := arg("Index"); ok {
			if n, ok := ssaread.ConstInt(v); ok && n != 0 {
				return []ClusterProblem{{Kind: OtherDatabase, What: fmt.Sprintf("SELECT %d", n), Refusal: "ERR SELECT is not allowed in cluster mode", At: at}}
			}
		}
	case "MOVE", "SWAPDB":
		return []ClusterProblem{{Kind: OtherDatabase, What: b.name, Refusal: "ERR " + b.name + " is not allowed in cluster mode", At: at, Whatever: true}}
	case "COPY":
		if v, ok := arg("Db"); ok {
			if n, ok := ssaread.ConstInt(v); ok && n != 0 {
				return []ClusterProblem{{Kind: OtherDatabase, What: fmt.Sprintf("COPY ... DB %d", n), Refusal: "ERR Copying to another database is not allowed in cluster mode", At: at}}
			}
		}
	case "SORT", "SORTRO":
		var out []ClusterProblem
		if v, ok := arg("By"); ok {
			if pattern, ok := ssaread.ConstString(v); ok && strings.Contains(pattern, "*") {
				out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("BY %q", pattern), Refusal: "ERR BY option of SORT denied in Cluster mode.", At: at})
			}
		}
		if v, ok := arg("Get"); ok {
			pattern, _ := ssaread.ConstString(v)
			out = append(out, ClusterProblem{Kind: SortPattern, What: fmt.Sprintf("GET %q", pattern), Refusal: "ERR GET option of SORT denied in Cluster mode.", At: at})
		}
		return out
	case "KEYS", "SCAN", "RANDOMKEY", "FLUSHDB", "FLUSHALL":
		return []ClusterProblem{{Kind: OneNode, What: b.name, At: at, Whatever: true}}
	}
	return nil
}

// intParam is an integer parameter's constant value and where it is.
func (c *Site) intParam(name string) (int64, keymodel.Range, bool) {
	j, v, ok := c.Param(name)
	if !ok {
		return 0, keymodel.Range{}, false
	}
	n, ok := ssaread.ConstInt(v)
	return n, c.ArgPos(j), ok
}

// DatabaseOption reads the DB option of a go-redis constructor call: a
// client of one server given a database other than 0 (refused by a cluster
// node: SELECT), or a client that is surely a cluster client given one (the
// option is dropped). ok is false when the call sets no such DB.
func DatabaseOption(call *ssa.Call, ev *eval.Evaluator) (ClusterProblem, bool) {
	fn := call.Call.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	if pkg == nil || !GoRedisPackages[pkg.Path()] {
		return ClusterProblem{}, false
	}
	c := SiteOf(ev, &call.Call)
	param := "opt"
	switch fn.Name() {
	case "NewClient":
	case "NewUniversalClient":
		param = "opts"
	default:
		return ClusterProblem{}, false
	}
	db, ok := c.fieldOfParam(param, "DB")
	if !ok {
		return ClusterProblem{}, false
	}
	k, ok := db.Value.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int || constant.Sign(k.Value) == 0 {
		return ClusterProblem{}, false
	}
	n := k.Value.ExactString()
	if fn.Name() == "NewUniversalClient" && MakesClusterClient(call, ev) {
		return ClusterProblem{Kind: DroppedDatabase, What: "DB " + n, At: db.At}, true
	}
	return ClusterProblem{Kind: OtherDatabase, What: "DB " + n, Refusal: "ERR SELECT is not allowed in cluster mode", At: db.At}, true
}
