package reading

import (
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
			if keys := sk.keys(); sk.fromParams() && !r.anyDiffer(keys) && !allSame(keys) {
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
	return out
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

// allSame: every pair of keys is proved to share a slot, whatever the
// callers give (one tag of one value): nothing for them to decide.
func allSame(keys []keymodel.Arg) bool {
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if keymodel.Unproved(keys[i], keys[j]) != "" && !keymodel.SameTagTemplate(keys[i], keys[j]) {
				return false
			}
		}
	}
	return true
}
