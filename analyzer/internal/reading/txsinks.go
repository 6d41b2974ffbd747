package reading

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// A transaction a helper runs over keys its callers give is judged at each
// call that gives them, as a wrapper's multi-key command is (a sink):
//
//	func (s *Store) spend(ctx context.Context, p, ledger string) error {
//		wallet := "{player:" + p + "}:wallet"
//		_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
//			pipe.HIncrBy(ctx, wallet, "gold", -1)
//			pipe.RPush(ctx, ledger, "spend")
//			return nil
//		})
//		return err
//	}
//	s.spend(ctx, p, "economy:audit") // the wallet and the audit stream: two slots
//
// The transaction is read in the helper, its callbacks' captured values
// given back to the helper's parameters (eval.Rehome), and is a txSink of
// its summary when some key comes from a parameter; a caller that passes
// its own parameters on carries it in turn.

// A txSink is a transaction a function runs, in terms of its parameters.
type txSink struct {
	name, fate, where string
	watch             bool
	client            int // the client's parameter (1-based), 0 if it is not one
	commands          []keymodel.QueuedCommand
	watched           []keymodel.Arg
	// lines > 0 says the commands are the command lines of the slice
	// parameter number lines, sent one by one between MULTI and EXEC:
	//
	//	func execTx(c redis.Conn, cmds [][]any) ([]any, error) {
	//		c.Send("MULTI")
	//		for _, cmd := range cmds {
	//			c.Send(cmd[0].(string), cmd[1:]...)
	//		}
	//		return redis.Values(c.Do("EXEC"))
	//	}
	//
	// A caller's literal of lines is its transaction.
	lines int
}

// transactionSinks lists the transactions fn runs, in its body or in the
// function literals it makes, and those of the helpers it calls that it
// passes its parameters to, whose keys come in part from its parameters.
func (r *Package) transactionSinks(fn *ssa.Function) []txSink {
	var out []txSink
	for _, g := range append([]*ssa.Function{fn}, anonFuncs(fn)...) {
		for _, t := range r.transactions(g) {
			sk := txSink{name: t.Name, fate: t.Fate, where: r.Where(t.At.Pos), watch: t.Watch, client: clients.ClientParam(t.client)}
			for _, c := range t.Commands {
				sk.commands = append(sk.commands, keymodel.QueuedCommand{Method: c.Method, Keys: r.rehome(c.Keys, fn)})
			}
			sk.watched = r.rehome(t.Watched, fn)
			if keys := sk.keys(); sk.fromParams() && !r.anyDiffer(keys) && !keymodel.OneSlot(keys) { // one slot whatever the callers give: nothing for them to decide
				out = append(out, sk)
			}
		}
	}
	for call := range ssaread.CallsIn(fn) {
		for _, t := range r.calledTransactions(call) {
			if sk := t.sink; sk.fromParams() {
				out = append(out, sk)
			}
		}
	}
	if p, where, ok := r.sendsLines(fn); ok {
		out = append(out, txSink{name: "MULTI/EXEC", fate: "the server refuses the transaction at EXEC (CROSSSLOT)", where: where, lines: p})
	}
	return out
}

// sendsLines finds in fn a redigo MULTI, an EXEC, and a Send in a loop over
// the elements of a slice parameter of command lines, each sent as its
// name and the rest (cmd[0].(string), cmd[1:]...): the parameter's number
// and where the Send is.
func (r *Package) sendsLines(fn *ssa.Function) (param int, where string, ok bool) {
	multi, exec := false, false
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		if m := common.Method; common.IsInvoke() && m != nil && (m.Name() == "Send" || m.Name() == "Do") && clients.IsRedigoConn(common.Value.Type()) && len(common.Args) > 0 {
			if name, isConst := ssaread.ConstString(common.Args[0]); isConst {
				multi = multi || strings.EqualFold(name, "MULTI")
				exec = exec || strings.EqualFold(name, "EXEC")
				continue
			}
			if p := lineParam(fn, common.Args[0]); p > 0 && m.Name() == "Send" {
				param, where = p, r.Where(call.Pos())
			}
		}
	}
	return param, where, multi && exec && param > 0
}

// lineParam is the slice parameter of fn whose element's first value v is,
// as cmd[0].(string) over for _, cmd := range cmds reads it; 0 if none.
func lineParam(fn *ssa.Function, v ssa.Value) int {
	if ta, isAssert := v.(*ssa.TypeAssert); isAssert {
		v = ta.X
	}
	first, ok := v.(*ssa.UnOp)
	if !ok || first.Op != token.MUL {
		return 0
	}
	ia, ok := first.X.(*ssa.IndexAddr)
	if !ok {
		return 0
	}
	if k, isConst := ia.Index.(*ssa.Const); !isConst || k.Int64() != 0 {
		return 0
	}
	elem, ok := ia.X.(*ssa.UnOp)
	if !ok || elem.Op != token.MUL {
		return 0
	}
	outer, ok := elem.X.(*ssa.IndexAddr)
	if !ok {
		return 0
	}
	if p, isParam := outer.X.(*ssa.Parameter); isParam && p.Parent() == fn {
		return ssaread.ParamIndex(p)
	}
	return 0
}

// anonFuncs are the function literals inside fn, at every depth.
func anonFuncs(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, a := range fn.AnonFuncs {
		out = append(append(out, a), anonFuncs(a)...)
	}
	return out
}

// rehome gives keys read in fn's literals back to fn's parameters.
func (r *Package) rehome(keys []keymodel.Arg, fn *ssa.Function) []keymodel.Arg {
	out := make([]keymodel.Arg, len(keys))
	for i, k := range keys {
		k.Alts = r.Eval.Rehome(k.Alts, fn)
		out[i] = k
	}
	return out
}

// keys are every key of the transaction, the watched ones first.
func (sk txSink) keys() []keymodel.Arg {
	out := append([]keymodel.Arg(nil), sk.watched...)
	for _, c := range sk.commands {
		out = append(out, c.Keys...)
	}
	return out
}

// fromParams: some key comes from the function's parameters.
func (sk txSink) fromParams() bool {
	return len(sk.commands) > 0 && keymodel.AnyFromParams(sk.keys())
}

// A calledTransaction is a helper's transaction seen from one call: its
// keys with the call's arguments put in, as a Transaction to judge there.
type calledTransaction struct {
	*Transaction
	sink txSink // the same, in terms of the calling function's parameters
}

// calledTransactions are the transactions of the function a call calls,
// with the call's arguments put in; none where the call passes a client
// the checks leave out.
func (r *Package) calledTransactions(call ssa.CallInstruction) []calledTransaction {
	called, ok := r.calledFunction(call.Common())
	if !ok || called.summary == nil || len(called.summary.transactions) == 0 {
		return nil
	}
	common := called.common
	site := clients.NewSite(r.Eval, common, called.sig)
	var out []calledTransaction
	for _, sk := range called.summary.transactions {
		var client ssa.Value
		if sk.client > 0 && sk.client <= len(common.Args) {
			client = common.Args[sk.client-1]
			if r.topo.LeftOutCall(call, client) || r.testOffCluster(call.Pos(), client) {
				continue
			}
		}
		inst := sk
		inst.commands, inst.watched = nil, site.InstantiateKeys(sk.watched)
		for _, c := range sk.commands {
			inst.commands = append(inst.commands, keymodel.QueuedCommand{Method: c.Method, Keys: site.InstantiateKeys(c.Keys)})
		}
		if sk.lines > 0 {
			if inst.commands, inst.lines = r.linesOf(site, sk.lines-1), 0; inst.commands == nil {
				continue // lines the call does not write out
			}
		}
		inst.client = clients.ClientParam(client)
		t := &Transaction{Name: sk.name, Commands: inst.commands, Watch: sk.watch, Watched: inst.watched, Fate: sk.fate,
			At: r.opening(call.Pos()), Via: r.CalleeName(called.obj) + " (" + sk.where + ")", client: client}
		if client != nil {
			t.Ring = r.topo.Is(client, topology.Ring)
		}
		out = append(out, calledTransaction{Transaction: t, sink: inst})
	}
	return out
}

// linesOf reads the command lines a call gives as argument j, a literal
// of literals ([][]any{{"INCRBY", k, n}, ...}, or redis.Args of a
// variadic): one command each, with the keys the command table places.
// Nil when the call does not write them out.
func (r *Package) linesOf(site *clients.Site, j int) []keymodel.QueuedCommand {
	lines, ok := site.ElementsOfArg(j)
	if !ok || len(lines) == 0 {
		return nil
	}
	var out []keymodel.QueuedCommand
	for _, line := range lines {
		values, ok := ssaread.SliceElements(ssaread.UnwrapInterface(line.Value))
		if !ok {
			return nil
		}
		name, keys, ok := site.LineKeys(values, line.At)
		if !ok {
			return nil
		}
		out = append(out, keymodel.QueuedCommand{Method: name, Keys: keys})
	}
	return out
}
