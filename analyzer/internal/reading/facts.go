package reading

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/internal/commands"
)

// A summary is what a function does with keys, in terms of its parameters,
// so that callers can put their arguments in:
//
//	func accountKey(id int) string { return fmt.Sprintf("account:%d", id) }
//
// has the result "account:" + %d(p1), so accountKey(7) is "account:7" and
// accountKey(id) shares its unknown part with every other accountKey(id).
type summary struct {
	// result holds the alternatives of a string result (one per return or
	// branch), nil when the function builds no key the analyzer can read.
	result []keymodel.Key
	// byDefault is result at the options' defaults, when option decides
	// which return runs (see eval.World); not exported as a fact.
	byDefault []keymodel.Key
	option    string
	// elems holds the alternatives of each element of a []string result
	// that is a fixed list, nil otherwise.
	elems [][]keymodel.Key
	// fields holds, for a struct result built as one composite literal,
	// each string field's alternatives by index (see eval.ReturnedFields).
	fields [][]keymodel.Key
	// each is the key a []string result holds for each element of slice
	// parameter eachOf (1-based; 0 when it is not such a result), its Elem
	// parts the element; or, mapBy > 0, the result holds what function
	// parameter mapBy returns for each element.
	eachOf int
	each   []keymodel.Key
	mapBy  int
	// sinks are the multi-key commands that the function's parameters reach,
	// directly or through other wrappers.
	sinks []sink
	// queued are the keyed commands the function queues on its parameters
	// that can be pipelines (sink.client), for the transactions of callers.
	queued []sink
	// forwards are the one-node commands the function sends with what its
	// callers give it, on a client that may be a cluster's (forwards.go).
	forwards []forward
	// transactions are the transactions it runs over keys its callers
	// give (txsinks.go).
	transactions []txSink
	// singleNodeResult: the function returns a client that talks to one
	// node (func newRDB() redis.UniversalClient { return redis.NewClient(...) }).
	singleNodeResult bool
	// singleNodeCallbacks are the function parameters (1-based) the function
	// runs as the callback of a single-node client's Pipelined, TxPipelined
	// or Watch, directly or through another such function: the pipeline or
	// *Tx their callers' function literals receive talks to one node.
	singleNodeCallbacks []int
	// concrete is the one named type (or pointer to it) of the package
	// that every return gives its interface result: an adapter's
	// constructor (rueidiscompat.NewAdapter returns *Compat as Cmdable),
	// whose methods calls through the interface run.
	concrete concreteType
	// picksFrom > 0 says the function returns, on some path, the first
	// element of its slice parameter number picksFrom (a connection picker:
	// func conn(cs ...redis.Cmdable) redis.Cmdable { if len(cs) > 0 {
	// return cs[0] }; return s.rdb }): a command on its result is queued
	// on what its caller passes there.
	picksFrom int
}

// A concreteType names a named type of a function's package, or a pointer
// to it.
type concreteType struct {
	Name    string
	Pointer bool
}

// A sink is a multi-key command inside a function whose keys come, at
// least in part, from the function's parameters: a wrapper's callers are
// checked as if they called the client.
type sink struct {
	method string         // the client method, e.g. "MGet"
	pos    token.Pos      // the command, when it is in the package under analysis
	where  string         // the command's file:line, for messages across packages
	client int            // the client's parameter (1-based), 0 if it is not one
	keys   []keymodel.Arg // in terms of the parameters; their positions are unused
	script []ScriptKey    // a script's keys besides KEYS[i], judged against keys
	// via are the implementations a queued command came through, of calls
	// through interface methods with several (see Transaction.InOne).
	via []implChoice
	// worlds are the keys of a queued command read in each world that
	// decides them (see eval.World); not exported as a fact.
	worlds []WorldKeys
}

// An implChoice is the implementation of an interface method a command
// came through, when the method has several: two commands that came
// through different implementations of one method are not run by one call
// (or by calls on one receiver), and are not judged together.
type implChoice struct {
	Method, Impl string // the interface method's and the implementation's full names
}

// exclusive reports commands that came through different implementations
// of one interface method.
func exclusive(x, y []implChoice) bool {
	for _, a := range x {
		for _, b := range y {
			if a.Method == b.Method && a.Impl != b.Impl {
				return true
			}
		}
	}
	return false
}

// A ScriptKey is a key a script touches besides a plain KEYS[i]. A wrapper's
// sink carries those built from its parameters when the script's declared
// keys come from them too, so that each call judges them.
type ScriptKey struct {
	Command string // the Redis command in the script, e.g. "HSET"
	Lua     string // the key as the script builds it, e.g. ARGV[1] .. <id>
	Line    int    // the script's line, for reports in the function
	Key     keymodel.Arg
	// FromData is the command by which the script read the key's name from
	// Redis (a name it stored in a hash or list itself), "" otherwise.
	FromData string
}

// useful reports whether the summary says anything a caller can use.
func (s *summary) useful() bool {
	return s != nil && (s.result != nil || s.elems != nil || s.eachOf > 0 || len(s.sinks) > 0 || len(s.queued) > 0 || len(s.forwards) > 0 || len(s.transactions) > 0 || s.fields != nil ||
		s.singleNodeResult || len(s.singleNodeCallbacks) > 0 || s.concrete.Name != "" || s.picksFrom > 0)
}

// keyFacts carries a function's summary to the packages that import it, so
// that a key builder in internal/keys or a wrapper in a store package serves
// every importer, under every driver. It is small and its gob encoding is
// deterministic: slices only, no maps, no positions (a token.Pos means
// nothing in another package's analysis), unknown parts renumbered.
type keyFacts struct {
	Result   factKeyList       // the string result's alternatives
	Elems    []factKeyList     // a []string result's elements
	Fields   []factKeyList     // a struct result's string fields, by index (nil: none)
	EachOf   int               // a []string result of one key per element of this slice parameter
	Each     factKeyList       // that key
	MapBy    int               // or what this function parameter makes of each element
	Sinks    []factSink        // multi-key commands the parameters reach
	Queued   []factSink        // keyed commands queued on pipeline parameters
	Forwards []factForward     // one-node commands sent with the parameters
	Txs      []factTransaction // transactions over keys the parameters give

	SingleNode          bool  // returns a single-node client
	SingleNodeCallbacks []int // parameters run as a single-node client's callback
	Concrete            concreteType
	PicksFrom           int // returns element 0 of this slice parameter on some path
}

type factKey []factPart

type factPart struct {
	Text              string
	Unknown           bool
	ID, Show          string
	NoBrace, NonEmpty bool
	Braces            bool
	Param             int
	Verb              string
	Bare              bool
	Join, Lead        bool
	Of                int
	Sub               string
	Elem              int
	Empty             keymodel.Guard // ID and Sub renumbered as the parts' are
}

type factSink struct {
	Method, Where string
	Client        int
	Keys          []factSinkKey
	Script        []factScriptKey
	Via           []implChoice
}

type factForward struct {
	Kind          int
	What, Refusal string
	DB, Library   int
	Where         string
	Client        int
	Params        []int
	// Line is a forwarded command line's (see valuedLine), nil for a
	// command that is the problem whatever its arguments.
	Line *factLine
}

// A factTransaction is a txSink: its commands as sinks (method and keys).
type factTransaction struct {
	Name, Fate, Where string
	Watch             bool
	Client            int
	Watched           []factSinkKey
	Commands          []factSink
	Lines             int
}

// A factLine is a valuedLine: its arguments, and its holes' parameters
// (Number) or texts.
type factLine struct {
	Argv  []commands.Arg
	Holes []factHole
}

type factHole struct {
	Arg, Number int
	Text        factKeyList
}

type factScriptKey struct {
	Command, Lua string
	Key          factSinkKey
}

type factSinkKey struct {
	Alts   factKeyList
	Spread int
	Apart  string // the φ of slices it is one list of (keymodel.Arg.Apart), renumbered
	Is     int
}

func (*keyFacts) AFact() {}

// FactTypes are the facts the reading exports and imports, for the
// analyzer's FactTypes.
func FactTypes() []analysis.Fact {
	return []analysis.Fact{new(keyFacts), new(pendingFacts), new(wiredFacts), new(settingFacts)}
}

// String is the fact as analysistest fixtures assert it:
//
//	key "account:"+%d(p1)
//	sink MGet(p3, p4) at pair.go:12
//	sink Run(p3) touching HSET p4+? at queue.go:20
//	returns a single-node client
//	runs p2 on one node
func (f *keyFacts) String() string {
	var out []string
	if f.PicksFrom > 0 {
		out = append(out, fmt.Sprintf("picks p%d[0]", f.PicksFrom))
	}
	if f.Concrete.Name != "" {
		star := ""
		if f.Concrete.Pointer {
			star = "*"
		}
		out = append(out, "returns "+star+f.Concrete.Name)
	}
	if f.Result != nil {
		out = append(out, "key "+showAlts(f.Result))
	}
	if f.Elems != nil {
		var elems []string
		for _, alts := range f.Elems {
			elems = append(elems, showAlts(alts))
		}
		out = append(out, "keys ["+strings.Join(elems, ", ")+"]")
	}
	for i, alts := range f.Fields {
		if alts != nil {
			out = append(out, fmt.Sprintf("field %d %s", i, showAlts(alts)))
		}
	}
	if f.EachOf > 0 && f.MapBy > 0 {
		out = append(out, fmt.Sprintf("keys p%d(p%d[i]) for each element of p%d", f.MapBy, f.EachOf, f.EachOf))
	} else if f.EachOf > 0 {
		out = append(out, fmt.Sprintf("keys %s for each element of p%d", showAlts(f.Each), f.EachOf))
	}
	for _, s := range f.Sinks {
		var keys []string
		for _, k := range s.Keys {
			if k.Spread > 0 {
				keys = append(keys, fmt.Sprintf("p%d...", k.Spread))
			} else {
				keys = append(keys, showAlts(k.Alts))
			}
		}
		var script string
		for _, k := range s.Script {
			script += fmt.Sprintf(" touching %s %s", k.Command, showAlts(k.Key.Alts))
		}
		out = append(out, fmt.Sprintf("sink %s(%s)%s at %s", s.Method, strings.Join(keys, ", "), script, s.Where))
	}
	for _, q := range f.Queued {
		var keys []string
		for _, k := range q.Keys {
			keys = append(keys, showAlts(k.Alts))
		}
		out = append(out, fmt.Sprintf("queues p%d.%s(%s)", q.Client, q.Method, strings.Join(keys, ", ")))
	}
	for _, fw := range f.Forwards {
		var params []string
		for _, p := range fw.Params {
			params = append(params, fmt.Sprintf("p%d", p))
		}
		out = append(out, fmt.Sprintf("forwards %s(%s) at %s", fw.What, strings.Join(params, ", "), fw.Where))
	}
	for _, t := range f.Txs {
		var cmds []string
		for _, c := range t.Commands {
			var keys []string
			for _, k := range c.Keys {
				keys = append(keys, showAlts(k.Alts))
			}
			cmds = append(cmds, fmt.Sprintf("%s(%s)", c.Method, strings.Join(keys, ", ")))
		}
		if t.Lines > 0 {
			cmds = append(cmds, fmt.Sprintf("the lines of p%d", t.Lines))
		}
		out = append(out, fmt.Sprintf("runs %s{%s} at %s", t.Name, strings.Join(cmds, "; "), t.Where))
	}
	if f.SingleNode {
		out = append(out, "returns a single-node client")
	}
	for _, p := range f.SingleNodeCallbacks {
		out = append(out, fmt.Sprintf("runs p%d on one node", p))
	}
	return strings.Join(out, "; ")
}

func showAlts(alts []factKey) string {
	var s []string
	for _, k := range alts {
		var parts []string
		for _, p := range k {
			switch {
			case !p.Unknown:
				parts = append(parts, strconv.Quote(p.Text))
			case p.Param > 0 && p.Join && p.Lead:
				parts = append(parts, fmt.Sprintf("each(%q+p%d)", p.Verb, p.Param))
			case p.Param > 0 && p.Join:
				parts = append(parts, fmt.Sprintf("join(p%d, %q)", p.Param, p.Verb))
			case p.Param > 0 && p.Verb == "":
				parts = append(parts, fmt.Sprintf("p%d", p.Param))
			case p.Param > 0:
				parts = append(parts, fmt.Sprintf("%s(p%d)", p.Verb, p.Param))
			case p.Of > 0:
				parts = append(parts, fmt.Sprintf("of(p%d, %s)", p.Of, p.Show))
			case p.Elem > 0:
				parts = append(parts, fmt.Sprintf("p%d[i]", p.Elem))
			default:
				parts = append(parts, "?")
			}
		}
		if len(parts) == 0 {
			parts = []string{`""`}
		}
		shown := strings.Join(parts, "+")
		for _, p := range k {
			switch g := p.Empty; {
			case g.Param > 0:
				shown += fmt.Sprintf(` when p%d == ""`, g.Param)
			case g.Of > 0:
				shown += fmt.Sprintf(` when of(p%d) == ""`, g.Of)
			case g.ID != "":
				shown += ` when ? == ""`
			}
		}
		s = append(s, shown)
	}
	return strings.Join(s, " | ")
}

func (s *summary) fact() *keyFacts {
	ids := map[string]string{} // the package's unknown parts, renumbered u1, u2, ...
	f := &keyFacts{Result: factKeys(s.result, ids), EachOf: s.eachOf, Each: factKeys(s.each, ids), MapBy: s.mapBy}
	for _, alts := range s.elems {
		f.Elems = append(f.Elems, factKeys(alts, ids))
	}
	for _, alts := range s.fields {
		f.Fields = append(f.Fields, factKeys(alts, ids))
	}
	f.Sinks = factSinks(s.sinks, ids)
	f.Queued = factSinks(s.queued, ids)
	for _, fw := range s.forwards {
		ff := factForward{Kind: int(fw.problem.Kind), What: fw.problem.What, Refusal: fw.problem.Refusal,
			DB: fw.problem.DB, Library: int(fw.library), Where: fw.where, Client: fw.client, Params: fw.params}
		if l := fw.line; l != nil {
			ff.Line = &factLine{Argv: l.argv}
			for _, h := range l.holes {
				ff.Line.Holes = append(ff.Line.Holes, factHole{Arg: h.arg, Number: h.number, Text: factKeys(h.text, ids)})
			}
		}
		f.Forwards = append(f.Forwards, ff)
	}
	for _, t := range s.transactions {
		ft := factTransaction{Name: t.name, Fate: t.fate, Where: t.where, Watch: t.watch, Client: t.client, Lines: t.lines}
		if ws := factSinks([]sink{{keys: t.watched}}, ids); len(ws) == 1 {
			ft.Watched = ws[0].Keys
		}
		for _, c := range t.commands {
			ft.Commands = append(ft.Commands, factSinks([]sink{{method: c.Method, keys: c.Keys}}, ids)...)
		}
		f.Txs = append(f.Txs, ft)
	}
	f.SingleNode, f.SingleNodeCallbacks = s.singleNodeResult, s.singleNodeCallbacks
	f.Concrete, f.PicksFrom = s.concrete, s.picksFrom
	return f
}

func factSinks(sinks []sink, ids map[string]string) []factSink {
	var out []factSink
	for _, sk := range sinks {
		fs := factSink{Method: sk.method, Where: sk.where, Client: sk.client, Via: sk.via}
		for _, k := range sk.keys {
			fk := factSinkKey{Alts: factKeys(k.Alts, ids), Spread: k.Spread}
			if k.Apart.Of != "" {
				of := "apart:" + k.Apart.Of
				if ids[of] == "" {
					ids[of] = fmt.Sprintf("a%d", len(ids)+1)
				}
				fk.Apart, fk.Is = ids[of], k.Apart.Is
			}
			fs.Keys = append(fs.Keys, fk)
		}
		for _, k := range sk.script {
			fs.Script = append(fs.Script, factScriptKey{Command: k.Command, Lua: k.Lua, Key: factSinkKey{Alts: factKeys(k.Key.Alts, ids), Spread: k.Key.Spread}})
		}
		out = append(out, fs)
	}
	return out
}

func factKeys(keys []keymodel.Key, ids map[string]string) factKeyList {
	if keys == nil {
		return nil
	}
	out := make(factKeyList, len(keys))
	for i, k := range keys {
		fk := make(factKey, len(k))
		for j, p := range k {
			fp := factPart{Text: p.Text, Unknown: p.Unknown, NoBrace: p.NoBrace, NonEmpty: p.NonEmpty, Braces: p.Braces, Param: p.Param, Verb: p.Verb, Bare: p.Bare, Join: p.Join, Lead: p.Lead, Elem: p.Elem}
			if p.Unknown && p.Param == 0 {
				if ids[p.ID] == "" {
					ids[p.ID] = fmt.Sprintf("u%d", len(ids)+1)
				}
				fp.ID, fp.Show = ids[p.ID], p.Show
			}
			if p.Of > 0 {
				sub := "sub:" + p.Sub
				if ids[sub] == "" {
					ids[sub] = fmt.Sprintf("s%d", len(ids)+1)
				}
				fp.Of, fp.Sub = p.Of, ids[sub]
			}
			if g := p.Empty; !g.IsZero() {
				fp.Empty = keymodel.Guard{Param: g.Param, Of: g.Of}
				if g.Param == 0 && g.ID != "" {
					if ids[g.ID] == "" {
						ids[g.ID] = fmt.Sprintf("u%d", len(ids)+1)
					}
					fp.Empty.ID = ids[g.ID]
				}
				if g.Of > 0 {
					sub := "sub:" + g.Sub
					if ids[sub] == "" {
						ids[sub] = fmt.Sprintf("s%d", len(ids)+1)
					}
					fp.Empty.Sub = ids[sub]
				}
			}
			fk[j] = fp
		}
		out[i] = fk
	}
	return out
}

func (f *keyFacts) summary() *summary {
	s := &summary{result: f.Result.keys(), eachOf: f.EachOf, each: f.Each.keys(), mapBy: f.MapBy}
	for _, alts := range f.Elems {
		s.elems = append(s.elems, alts.keys())
	}
	for _, alts := range f.Fields {
		s.fields = append(s.fields, alts.keys())
	}
	s.sinks = summarySinks(f.Sinks)
	s.queued = summarySinks(f.Queued)
	for _, fw := range f.Forwards {
		f := forward{problem: readiness.ClusterProblem{Kind: readiness.ProblemKind(fw.Kind), What: fw.What, Refusal: fw.Refusal, DB: fw.DB, Whatever: fw.Line == nil},
			library: clients.Library(fw.Library), where: fw.Where, client: fw.Client, params: fw.Params}
		if fw.Line != nil {
			f.line = &valuedLine{argv: fw.Line.Argv}
			for _, h := range fw.Line.Holes {
				f.line.holes = append(f.line.holes, lineHole{arg: h.Arg, number: h.Number, text: h.Text.keys()})
			}
		}
		s.forwards = append(s.forwards, f)
	}
	for _, ft := range f.Txs {
		t := txSink{name: ft.Name, fate: ft.Fate, where: ft.Where, watch: ft.Watch, client: ft.Client, lines: ft.Lines}
		if ws := summarySinks([]factSink{{Keys: ft.Watched}}); len(ws) == 1 {
			t.watched = ws[0].keys
		}
		for _, c := range summarySinks(ft.Commands) {
			t.commands = append(t.commands, keymodel.QueuedCommand{Method: c.method, Keys: c.keys})
		}
		s.transactions = append(s.transactions, t)
	}
	s.singleNodeResult, s.singleNodeCallbacks = f.SingleNode, f.SingleNodeCallbacks
	s.concrete, s.picksFrom = f.Concrete, f.PicksFrom
	return s
}

func summarySinks(fs []factSink) []sink {
	var out []sink
	for _, f := range fs {
		sk := sink{method: f.Method, where: f.Where, client: f.Client, via: f.Via}
		for _, k := range f.Keys {
			arg := keymodel.Arg{Alts: k.Alts.keys(), Spread: k.Spread}
			if k.Apart != "" {
				arg.Apart = keymodel.Alternative{Of: "fact:" + k.Apart, Is: k.Is}
			}
			sk.keys = append(sk.keys, arg)
		}
		for _, k := range f.Script {
			sk.script = append(sk.script, ScriptKey{Command: k.Command, Lua: k.Lua, Key: keymodel.Arg{Alts: k.Key.Alts.keys(), Spread: k.Key.Spread}})
		}
		out = append(out, sk)
	}
	return out
}

type factKeyList []factKey

func (l factKeyList) keys() []keymodel.Key {
	if l == nil {
		return nil
	}
	out := make([]keymodel.Key, len(l))
	for i, fk := range l {
		k := make(keymodel.Key, len(fk))
		for j, p := range fk {
			k[j] = keymodel.Part{Text: p.Text, Unknown: p.Unknown, ID: "fact:" + p.ID, Show: p.Show,
				NoBrace: p.NoBrace, NonEmpty: p.NonEmpty, Braces: p.Braces, Param: p.Param, Verb: p.Verb, Bare: p.Bare, Join: p.Join, Lead: p.Lead,
				Of: p.Of, Sub: p.Sub, Elem: p.Elem, Empty: p.Empty}
			if p.Empty.ID != "" {
				k[j].Empty.ID = "fact:" + p.Empty.ID
			}
			if p.Param > 0 {
				k[j].Show = fmt.Sprintf("p%d", p.Param)
			}
		}
		out[i] = k
	}
	return out
}
