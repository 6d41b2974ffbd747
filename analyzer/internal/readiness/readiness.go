// Package readiness is what a cluster refuses, or does differently, besides
// CROSSSLOT, read from one call: the problem kinds, the refusals of a
// command line (databases, SORT patterns), the keyspace-wide commands a
// cluster client sends to one node, the database options of client
// constructors, keyspace notifications, and the calls that pass on their
// function's arguments or record a mock's, whose callers decide
// (readiness.go); and the verdict on each problem (verdict.go), which
// asks what the call's client talks to through a small Setting. It reads
// calls through clients (a call as a command line) and judges the lines
// with internal/commands, the rules the guards share; the messages are the
// checks'.
//
// It imports clients, eval, keymodel, ssaread and internal/commands, and
// must not import reading or the analyzer package.
package readiness

import (
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/clustertarget"
	"github.com/crossslot/crossslot/internal/commands"
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
	// Why says what of a SORT pattern the target refuses, by which rule
	// (commands.Refusal's Why).
	Why string
	At  keymodel.Range
	// Whatever says the command is the problem whatever its arguments
	// (KEYS, MOVE): code that forwards it (a library's wrapper, a mock)
	// cannot know which client it will run on.
	Whatever bool
	// Undecided: the argument that decides (a database, a SORT pattern) is
	// not fixed by the code; not reported, counted.
	Undecided bool
	// OnCluster: the option is a cluster client's own (GLIDE's cluster
	// configuration), which the cluster refuses whatever else is set.
	OnCluster bool
	// IfTagless: the problem holds unless a value the code does not fix
	// holds a brace (a SORT pattern under a configured prefix): reported
	// where the wiring gives the value as text without one, and Arg is the
	// index in the command line of the argument it is about.
	IfTagless bool
	Arg       int
	// AddrsUncounted: a DroppedDatabase of go-redis's NewUniversalClient
	// whose addresses the code does not count: dropped by the cluster
	// client several make, refused (Refusal) by the cluster node one names
	// unless the cluster has database DB.
	AddrsUncounted bool
	// Value is the database option's value when it is Undecided: a
	// constructor's parameter, or a field of one, that the wiring fixes.
	Value ssa.Value
	// DB is the database an OtherDatabase problem needs (SELECT 2, MOVE k 2,
	// COPY ... DB 2, a DB 2 option), -1 when none is known (SWAPDB): a
	// cluster of several databases (Valkey 9) has some.
	DB int
}

func kindOf(name string) (ProblemKind, bool) {
	switch {
	case commands.OnOneNode(name):
		return OneNode, true
	case name == "SORT" || name == "SORT_RO":
		return SortPattern, true
	case slices.Contains(commands.RefusedNames, name):
		return OtherDatabase, true
	}
	return 0, false
}

// ClusterProblems reads what a call does that a cluster refuses or does
// differently: a go-redis method, a command line (go-redis Do, redigo Do
// and Send, the builder's Arbitrary), or a rueidis or valkey-go built
// command, each read as a command line and judged by commands.Refuses.
// site says whether the call is a site of the readiness checks at all (a
// command that may need a database, a SORT, a keyspace-wide command), and
// kind of which, for the coverage report.
func ClusterProblems(c *clients.Site, t clustertarget.Target) (kind ProblemKind, problems []ClusterProblem, site bool) {
	name, argv, at, ok := clients.CommandLine(c)
	if !ok {
		return 0, nil, false
	}
	if name == "DBSIZE" && c.Library == clients.Glide && glideOnOneNode(c, name) {
		// Every cluster client sums DBSIZE over the primaries (GLIDE's
		// core, go-redis's ClusterClient), but not in an atomic batch,
		// which GLIDE sends to one node.
		return OneNode, []ClusterProblem{{Kind: OneNode, What: name, At: c.CallPos(), Whatever: true}}, true
	}
	kind, problems, site = lineProblems(name, argv, at, c.CallPos(), t)
	if kind == OneNode && c.Library == clients.Glide && !glideOnOneNode(c, name) {
		return kind, nil, site // GLIDE sends it to every primary, or node
	}
	return kind, problems, site
}

// glideOnOneNode reports a keyspace-wide command that GLIDE's cluster
// client sends to one node: SCAN as a raw command (its own Scan walks
// every slot), and any of them in an atomic batch, which runs on one node.
// Outside a batch the core sends KEYS, RANDOMKEY, FLUSHDB, FLUSHALL and
// DBSIZE to every primary, SCRIPT LOAD to every node, FUNCTION LOAD to
// every primary.
func glideOnOneNode(c *clients.Site, name string) bool {
	if batch := clients.GlideBatch(c); batch != nil {
		return clients.GlideAtomic(batch)
	}
	return name == "SCAN"
}

// LineProblems is ClusterProblems of a command line a script sends: its
// name (upper case) first.
func LineProblems(argv []commands.Arg, t clustertarget.Target) (kind ProblemKind, problems []ClusterProblem, site bool) {
	if len(argv) == 0 || !argv[0].Known {
		return 0, nil, false
	}
	return lineProblems(argv[0].Text, argv, nil, keymodel.Range{}, t)
}

// lineProblems judges a command line; at says where each argument is
// written (nil: at the call, call).
func lineProblems(name string, argv []commands.Arg, at []keymodel.Range, call keymodel.Range, t clustertarget.Target) (kind ProblemKind, problems []ClusterProblem, site bool) {
	if what, ok := commands.LoadsOnOneNode(argv); ok {
		return OneNode, []ClusterProblem{{Kind: OneNode, What: what, At: call, Whatever: true}}, true
	}
	kind, ok := kindOf(name)
	if !ok {
		return 0, nil, false
	}
	if kind == OneNode {
		return kind, []ClusterProblem{{Kind: OneNode, What: name, At: call, Whatever: true}}, true
	}
	refusals, undecided := commands.Refuses(argv, t)
	var out []ClusterProblem
	for _, r := range refusals {
		p := ClusterProblem{Kind: OtherDatabase, What: r.What, Refusal: r.Text, Why: r.Why, At: call, Whatever: r.Arg == 0, DB: r.DB, IfTagless: r.IfTagless, Arg: r.Arg}
		if r.Problem == "sortpattern" {
			p.Kind, p.DB = SortPattern, -1
		}
		if r.Arg < len(at) && at[r.Arg] != (keymodel.Range{}) {
			p.At = at[r.Arg] // where a typed method's parameter is written
		}
		out = append(out, p)
	}
	if undecided {
		p := ClusterProblem{Kind: kind, Undecided: true}
		if i, what, refusal, ok := commands.UnknownDatabase(argv); ok {
			// the wiring may fix it (a constructor's database)
			p.Arg, p.What, p.Refusal, p.At, p.DB = i, what, refusal, call, -1
			if i < len(at) && at[i] != (keymodel.Range{}) {
				p.At = at[i]
			}
		}
		out = append(out, p)
	}
	return kind, out, true
}

// databaseOptions are the constructors and dial options that select a
// database for every connection they make, by package: the option's
// parameter and field ("" for a dial option whose argument is the number).
// A cluster node refuses the SELECT (rueidis's NewClient fails with it, and
// so does redigo's Dial), and go-redis's universal client drops the option
// when it makes a cluster client.
var databaseOptions = map[string]map[string][2]string{
	"github.com/redis/rueidis":         {"NewClient": {"option", "SelectDB"}},
	"github.com/valkey-io/valkey-go":   {"NewClient": {"option", "SelectDB"}},
	"github.com/gomodule/redigo/redis": {"DialDatabase": {"db", ""}},
	// GLIDE's configurations: the standalone client's, and the cluster
	// client's, whose NewClusterClient then fails to connect ("Redis server
	// refused to switch database").
	"github.com/valkey-io/valkey-glide/go/v2/config": {"WithDatabaseId": {"id", ""}},
	"github.com/garyburd/redigo/redis":               {"DialDatabase": {"db", ""}},
}

// DatabaseOption reads the database option of a client constructor call
// (go-redis's DB, rueidis's and valkey-go's SelectDB, redigo's
// DialDatabase): a client of one server given a database other than 0
// (refused by a cluster node: SELECT), a client that is surely a cluster
// client given one (go-redis drops it), or an option the code does not fix
// (from configuration: Undecided). ok is false when the call sets no
// database.
func DatabaseOption(call *ssa.Call, ev *eval.Evaluator) (ClusterProblem, bool) {
	fn := call.Call.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	if pkg == nil {
		return ClusterProblem{}, false
	}
	c := clients.SiteOf(ev, &call.Call)
	var param, field, option string
	switch {
	case clients.GoRedisPackages[pkg.Path()] && fn.Name() == "NewClient":
		param, field, option = "opt", "DB", "DB"
	case clients.GoRedisPackages[pkg.Path()] && fn.Name() == "NewUniversalClient":
		param, field, option = "opts", "DB", "DB"
	default:
		o, ok := databaseOptions[pkg.Path()][fn.Name()]
		if !ok {
			return ClusterProblem{}, false
		}
		param, field, option = o[0], o[1], o[1]
		if field == "" {
			option = fn.Name()
		}
	}
	var db eval.Element
	if field == "" {
		j, v, ok := c.Param(param)
		if !ok {
			return ClusterProblem{}, false
		}
		db = eval.Element{Value: v, At: c.ArgPos(j)}
	} else if e, ok := c.FieldOfParam(param, field); ok {
		db = e
	} else if e, ok := urlDatabase(c, param, ev); ok {
		db = e
	} else {
		// Options the call does not write out (a value from elsewhere):
		// whether they select a database is not known here.
		return ClusterProblem{Kind: OtherDatabase, What: option, Undecided: true, At: c.CallPos()}, true
	}
	k, isConst := db.Value.(*ssa.Const)
	switch {
	case !isConst || k.Value == nil || k.Value.Kind() != constant.Int:
		// the wiring may fix it (Value): judged then as a constant is
		p := ClusterProblem{Kind: OtherDatabase, What: option, Undecided: true, At: db.At, DB: -1, Value: db.Value, Refusal: commands.RefusedSelect,
			OnCluster: fn.Name() == "DialDatabase" && clients.DialsRediscCluster(call)}
		switch {
		case fn.Name() == "NewUniversalClient" && clients.MakesClusterClient(call, ev):
			p.Kind, p.Refusal = DroppedDatabase, ""
		case fn.Name() == "NewUniversalClient" && clients.MakesClientByAddrCount(call, ev):
			p.Kind, p.AddrsUncounted = DroppedDatabase, true
		}
		return p, true
	case constant.Sign(k.Value) == 0:
		return ClusterProblem{}, false
	}
	n := k.Value.ExactString()
	if fn.Name() == "NewUniversalClient" && clients.MakesClusterClient(call, ev) {
		return ClusterProblem{Kind: DroppedDatabase, What: option + " " + n, At: db.At, DB: -1}, true
	}
	if fn.Name() == "NewUniversalClient" && clients.MakesClientByAddrCount(call, ev) {
		// several addresses: a cluster client, which drops the option; one:
		// a plain client, which a cluster node refuses the SELECT. On a
		// cluster it fails either way.
		number, _ := constant.Int64Val(k.Value)
		return ClusterProblem{Kind: DroppedDatabase, What: option + " " + n, Refusal: commands.RefusedSelect, At: db.At, DB: int(number), AddrsUncounted: true}, true
	}
	number, _ := constant.Int64Val(k.Value)
	// GLIDE's cluster configuration, and a redigo dial option of redisc's
	// Cluster, which dials every node with it: each connection fails
	onCluster := fn.Signature.Recv() != nil && ssaread.IsNamed(fn.Signature.Recv().Type(), pkg.Path(), "ClusterClientConfiguration") ||
		fn.Name() == "DialDatabase" && clients.DialsRediscCluster(call)
	return ClusterProblem{Kind: OtherDatabase, What: option + " " + n, Refusal: commands.RefusedSelect, At: db.At, DB: int(number), OnCluster: onCluster}, true
}

// urlParsers are the functions that read options from a URL whose path
// (redis://host:6379/3), or db query parameter, is the database.
var urlParsers = map[string]bool{
	"github.com/redis/go-redis/v9": true, "github.com/go-redis/redis/v9": true, "github.com/go-redis/redis/v8": true,
	"github.com/redis/rueidis": true, "github.com/valkey-io/valkey-go": true,
}

// urlDatabase is the database of options a constructor is given straight
// from a ParseURL of a constant URL, as a constant at the URL: the path's
// one segment, or the db query parameter, which both clients read over
// it; 0 when it has neither. ok is false for anything else.
func urlDatabase(c *clients.Site, param string, ev *eval.Evaluator) (eval.Element, bool) {
	_, v, ok := c.Param(param)
	if !ok {
		return eval.Element{}, false
	}
	ext, ok := v.(*ssa.Extract)
	if !ok || ext.Index != 0 || len(*ext.Referrers()) != 1 {
		return eval.Element{}, false // options changed before the call (opt.DB = 2)
	}
	parse, ok := ext.Tuple.(*ssa.Call)
	if !ok {
		return eval.Element{}, false
	}
	fn := parse.Call.StaticCallee()
	pkg := ssaread.FuncPackage(fn)
	if pkg == nil || fn.Name() != "ParseURL" || !urlParsers[pkg.Path()] || len(parse.Call.Args) != 1 {
		return eval.Element{}, false
	}
	text, ok := parse.Call.Args[0].(*ssa.Const)
	if !ok || text.Value == nil || text.Value.Kind() != constant.String {
		return eval.Element{}, false
	}
	u, err := url.Parse(constant.StringVal(text.Value))
	if err != nil {
		return eval.Element{}, false
	}
	n := 0
	if segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' }); u.Scheme != "unix" && len(segs) > 0 {
		// a unix URL's path is the socket's
		if len(segs) > 1 {
			return eval.Element{}, false // refused by the parser
		}
		if n, err = strconv.Atoi(segs[0]); err != nil {
			return eval.Element{}, false
		}
	}
	if q := u.Query().Get("db"); q != "" {
		if n, err = strconv.Atoi(q); err != nil {
			return eval.Element{}, false
		}
	}
	return eval.Element{Value: ssa.NewConst(constant.MakeInt64(int64(n)), types.Typ[types.Int]), At: clients.SiteOf(ev, &parse.Call).ArgPos(0)}, true
}

// KeyspaceEvents reads a call for keyspace notifications (see
// commands.KeyspaceEvents): what it subscribes to or configures, whether an
// argument that decides is not known, and whether the call is such a
// command at all.
func KeyspaceEvents(c *clients.Site) (what string, undecided, site bool) {
	_, argv, _, ok := clients.CommandLine(c)
	if !ok {
		return "", false, false
	}
	what, undecided, site = commands.KeyspaceEvents(argv)
	if c.Library == clients.Glide && strings.HasPrefix(what, "CONFIG SET") {
		return "", undecided, site // GLIDE sends CONFIG SET to every node
	}
	return what, undecided, site
}

// A command that is the problem whatever its arguments (KEYS, FLUSHDB) on a
// client that may or may not be a cluster's is reported, unless the call
// is not the code's own: it passes on what its function was given
// (Forwards), or it is a mock's recording of a command (Records).

// Forwards reports a call that passes on what its function was given: a
// text argument (or a builder method's, for rueidis) is, or starts with, a
// parameter of the enclosing function other than its receiver and a
// context, as a key its callers fill does. A library's Keys(pattern)
// method, a mock's ExpectKeys(prefix+"*"): the command is its callers',
// which may or may not hold a cluster client. A pattern with text of its
// own before the parameter ("sess:"+user+":*") is the function's, judged
// where it is built; so is a SCAN whose cursor or count alone is a
// parameter.
func Forwards(site *clients.Site) bool {
	return len(ForwardedParams(site.Common.Args[site.RecvArgs():])) > 0
}

// ForwardedParams are the parameters of the enclosing functions, other than
// a method's receiver, a context and numbers (a cursor, a count), that the
// values are or start with: through conversions, a captured variable, a
// variadic argument's elements, a builder's chain and the left operand of
// +, but not through text built before them.
func ForwardedParams(start []ssa.Value) []*ssa.Parameter {
	values := slices.Clone(start)
	var params []*ssa.Parameter
	seen := map[ssa.Value]bool{}
	for len(values) > 0 {
		v := values[len(values)-1]
		values = values[:len(values)-1]
		if v == nil || seen[v] {
			continue
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter:
			fn := v.Parent()
			if fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == v {
				continue // the receiver: the library's own object
			}
			if isContext(v.Type()) || IsNumber(v.Type()) {
				continue
			}
			params = append(params, v)
		case *ssa.FreeVar:
			values = append(values, ssaread.ClosureBindings(v)...) // what the enclosing function captured
		case *ssa.UnOp:
			if v.Op == token.MUL {
				values = append(values, v.X) // a captured variable's load
			}
		case *ssa.MakeInterface:
			values = append(values, v.X)
		case *ssa.ChangeType:
			values = append(values, v.X)
		case *ssa.Convert:
			values = append(values, v.X)
		case *ssa.Slice:
			values = append(values, v.X)
		case *ssa.BinOp:
			if v.Op == token.ADD {
				values = append(values, v.X) // what the text starts with
			}
		case *ssa.Call:
			// a builder's chain (a static method's receiver is its first
			// argument; the client an interface's B() is called on is not
			// followed); not fmt.Sprintf or strings.Join, which build text
			if fn := v.Call.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && fn.Pkg != nil && clients.IsClientCode(fn.Pkg.Pkg.Path()) {
				values = append(values, v.Call.Args...)
			}
		case *ssa.Alloc:
			for _, ref := range *v.Referrers() {
				if ia, ok := ref.(*ssa.IndexAddr); ok {
					for _, use := range *ia.Referrers() {
						if st, ok := use.(*ssa.Store); ok && st.Addr == ia {
							values = append(values, st.Val) // a variadic argument's elements
						}
					}
				}
			}
		}
	}
	return params
}

// IsNumber: a number, as a SCAN's cursor and count, or a database, are.
func IsNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// isContext reports a context.Context.
func isContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// Records reports a call whose command object is kept in a struct field
// rather than read: a mock that builds expected commands (redismock's
// e.cmd = m.factory.FlushAll(ctx)), not code that runs them.
func Records(site *clients.Site) bool {
	v, ok := site.Call.(*ssa.Call)
	if !ok {
		return false
	}
	values := []ssa.Value{v}
	for len(values) > 0 {
		x := values[0]
		values = values[1:]
		if x.Referrers() == nil {
			continue
		}
		for _, ref := range *x.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if _, field := ref.Addr.(*ssa.FieldAddr); field && ref.Val == x {
					return true
				}
			case *ssa.MakeInterface: // stored as a redis.Cmder
				values = append(values, ref)
			case *ssa.ChangeInterface:
				values = append(values, ref)
			}
		}
	}
	return false
}
