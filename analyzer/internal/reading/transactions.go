package reading

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// Every key of one MULTI/EXEC must be on one slot. go-redis v9.11.0 and
// later refuse a cluster transaction whose commands' keys span slots
// (ErrCrossSlot, nothing written); v9.10.0 and earlier, and v8, v7 and v6,
// split it into one MULTI/EXEC per slot, silently no longer atomic. Inside
// Watch's callback, the transaction runs on the node of the watched keys,
// where a key of another slot fails with MOVED.
//
// A transaction's commands are the keyed commands queued on one pipeline:
//   - in a TxPipelined callback, a function literal or a named function;
//   - on a TxPipeline() value, up to an Exec that comes before them;
//   - in a Watch callback, on its *Tx, and in the TxPipelined it runs;
//   - between redigo's Send("MULTI") and Do("EXEC") on one connection;
//   - in one rueidis DoMulti of MULTI ... EXEC;
//
// directly or through helpers that take the pipeline as a parameter (their
// summaries' queued commands, facts across packages). Plain pipelines are
// split per node by the client: their commands are not compared.

// A Transaction is one MULTI/EXEC a function sends, with its commands in
// the order they are queued.
type Transaction struct {
	// Name is how the code starts it: TxPipelined, TxPipeline, Watch,
	// MULTI/EXEC, DoMulti.
	Name     string
	Commands []keymodel.QueuedCommand
	// At is the call that opens it (TxPipelined, TxPipeline, Watch, MULTI,
	// DoMulti), up to its '(' : findings name it as a related position.
	At keymodel.Range
	// Fate says what the client or the server does with one whose keys are
	// on different slots.
	Fate string
	// Watch: the commands are a Watch callback's, which run on the node of
	// the keys it watches, Watched.
	Watch   bool
	Watched []keymodel.Arg
	// Batch: the commands are a GLIDE batch's, not a callback's; batch is
	// the call that made an atomic batch.
	Batch bool
	batch *ssa.Call
	// Together says whether commands i and j run in one transaction: not
	// when they are queued on paths that exclude each other (if/else).
	// Nil when every pair does.
	Together func(i, j int) bool
	// via are the implementations each command came through, of calls
	// through interface methods with several: one call, or calls on one
	// receiver, run one of them, so commands of two implementations of one
	// method are not judged together. Nil when none did.
	via [][]implChoice
	// Wired says where the transaction's client comes from when the
	// wiring decides it (see WiringOf).
	Wired Wiring
	// Ring: the client is go-redis's Ring, which runs one MULTI/EXEC per
	// shard (the ringshard check's, not crossslot's).
	Ring bool
	// Via names the helper that runs the transaction, seen from a call of
	// it with the call's keys (see txSink): "Store.spend (store.go:40)".
	Via string
	// client is what the transaction runs on, when the code shows it.
	client ssa.Value
}

// InOne says whether commands i and j run in one transaction: not when
// they are queued on paths that exclude each other, nor when they came
// through different implementations of one interface method.
func (t *Transaction) InOne(i, j int) bool {
	if t.via != nil && exclusive(t.via[i], t.via[j]) {
		return false
	}
	return t.Together == nil || t.Together(i, j)
}

// opensTransaction reports a call that opens a transaction on a go-redis
// client: TxPipelined, TxPipeline, Watch.
func opensTransaction(call ssa.CallInstruction) bool {
	if m := clients.GoRedisMethod(call.Common()); m != nil {
		switch m.Name() {
		case "TxPipelined", "TxPipeline", "Watch":
			return true
		}
	}
	return false
}

// transactions lists the transactions fn starts, in the order of its calls
// (those sent as command lines last), leaving out those on a single-node
// client unless the options include them, and those of tests off a cluster.
func (r *Package) transactions(fn *ssa.Function) []*Transaction {
	var out []*Transaction
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		if r.testOffCluster(call.Pos(), ssaread.ReceiverValue(common)) {
			continue
		}
		oneNode := r.topo.LeftOutCall(call, ssaread.ReceiverValue(common))
		if oneNode && opensTransaction(call) && r.topo.SkippedCallAsSingleNode(call, ssaread.ReceiverValue(common)) {
			r.skippedSingleNode(call)
		}
		start := len(out)
		mark := r.Eval.Mark()
		if cmds, ok := clients.DoMultiTransaction(call, r.Eval); ok && !oneNode {
			for _, w := range r.Eval.Worlds(mark) {
				in, _ := clients.DoMultiTransaction(call, r.worldEval(w))
				for i := range min(len(in), len(cmds)) {
					cmds[i].Worlds = append(cmds[i].Worlds, WorldKeys{Name: w.Name(), Keys: in[i].Keys, Setting: w.Setting})
				}
			}
			out = append(out, &Transaction{Name: "DoMulti", Commands: cmds, At: r.opening(call.Pos()),
				Fate: "the cluster client panics on it (Mixing no-slot and cross slot commands in DoMulti is prohibited)"})
		}
		m := clients.GoRedisMethod(common)
		name := ""
		if m != nil && !oneNode {
			name = m.Name()
		}
		switch name {
		case "TxPipelined":
			if cb := ssaread.CallbackArg(common); cb != nil {
				cmds, via := r.queuedOn(cb)
				out = append(out, &Transaction{Name: "TxPipelined", Commands: cmds, via: via, Fate: r.transactionFate(m), At: r.opening(call.Pos())})
			}
		case "TxPipeline":
			if v, ok := call.(*ssa.Call); ok {
				cmds, at, via := r.pipelineCommands(fn, v)
				out = append(out, &Transaction{Name: "TxPipeline", Commands: cmds, via: via, Fate: r.transactionFate(m), At: r.opening(call.Pos()),
					Together: func(i, j int) bool { return ssaread.OnOnePath(at[i], at[j]) }})
			}
		case "Watch":
			if cb := ssaread.CallbackArg(common); cb != nil {
				site := clients.NewSite(r.Eval, common, m.Signature())
				cmds, via := r.queuedOn(cb)
				out = append(out, &Transaction{Name: "Watch", Commands: cmds, via: via, Watch: true, Watched: site.KeysOfParam("keys"), At: r.opening(call.Pos()),
					Fate: "the callback runs on the watched keys' node, where another slot fails with MOVED"})
			}
		}
		if len(out) > start {
			wired, ring := r.WiringOf(call, ssaread.ReceiverValue(common)), r.topo.IsAt(call, ssaread.ReceiverValue(common), topology.Ring)
			for _, t := range out[start:] {
				t.Wired, t.Ring, t.client = wired, ring, ssaread.ReceiverValue(common)
			}
		}
	}
	out = append(out, r.multiExecs(fn)...)
	batches := r.atomicBatches(fn)
	return append(append(out, batches...), r.glideWatches(fn, batches)...)
}

// glideWatches lists GLIDE's Watch calls that an Exec of an atomic batch
// of fn follows on the same client: GLIDE sends the WATCH to the watched
// keys' nodes and the batch to its own, where a watch of another node is
// no watch at all.
func (r *Package) glideWatches(fn *ssa.Function, batches []*Transaction) []*Transaction {
	var out []*Transaction
	var watches []*clients.Site // not yet ended by an Exec
	for call := range ssaread.CallsIn(fn) {
		site := r.clientCall(call)
		if site == nil || site.Library != clients.Glide || clients.GlideBatch(site) != nil {
			continue
		}
		if site.Method == "Watch" {
			watches = append(watches, site)
			continue
		}
		batch, isExec := clients.GlideExec(site)
		if !isExec {
			continue
		}
		for i := len(watches) - 1; i >= 0; i-- {
			w := watches[i]
			if !topology.SameClient(w.Client(), site.Client()) || !ssaread.Dominates(w.Call, site.Call) {
				continue
			}
			watches = append(watches[:i], watches[i+1:]...) // EXEC ends the watch
			for _, t := range batches {
				if clients.GlideAtomic(batch) && t.batch == batch {
					keys, _ := r.keysOf(w)
					out = append(out, &Transaction{Name: "Watch", Commands: t.Commands, Watch: true, Watched: keys, Batch: true, At: r.opening(w.Call.Pos()),
						Fate: "where the slots are on different nodes, GLIDE's WATCH is silently ignored and the batch commits over a changed key"})
				}
			}
		}
	}
	return out
}

// atomicBatches lists the atomic GLIDE batches fn queues commands on
// (pipeline.NewClusterBatch(true)), their commands in the order fn queues
// them: the core sends such a batch to one node, and refuses it on the
// client when its commands' keys are on different slots.
func (r *Package) atomicBatches(fn *ssa.Function) []*Transaction {
	var out []*Transaction
	byBatch := map[*ssa.Call]*Transaction{}
	for call := range ssaread.CallsIn(fn) {
		site := r.clientCall(call)
		if site == nil {
			continue
		}
		batch := clients.GlideBatch(site)
		if !clients.GlideAtomic(batch) || r.testOffCluster(call.Pos(), batch) {
			continue
		}
		t := byBatch[batch]
		if t == nil {
			t = &Transaction{Name: "ClusterBatch", At: r.opening(batch.Pos()), batch: batch,
				Fate: "GLIDE refuses the atomic batch before sending it (Received crossed slots in pipeline- CrossSlot)"}
			byBatch[batch] = t
			out = append(out, t)
		}
		if keys, _ := r.keysOf(site); len(keys) > 0 {
			t.Commands = append(t.Commands, r.transactionCommand(site))
		}
	}
	return out
}

// opening is the range of the call whose '(' is at lparen, from its start
// to the '(' (a callback's body is not the call's place).
func (r *Package) opening(lparen token.Pos) keymodel.Range {
	if call := r.Eval.Source.Calls[lparen]; call != nil {
		return keymodel.Range{Pos: call.Pos(), End: call.Lparen}
	}
	return keymodel.Range{Pos: lparen, End: lparen}
}

// pipelineCommands is what fn queues on the TxPipeline() value txp before an
// Exec of it, and where: a command that an Exec dominates belongs to the
// next batch; and the implementations each came through (see sink.via).
func (r *Package) pipelineCommands(fn *ssa.Function, txp *ssa.Call) ([]keymodel.QueuedCommand, []ssa.Instruction, [][]implChoice) {
	var execs []ssa.Instruction
	var cmds []rootedCommand
	for _, c := range r.commandsOnPipelines(fn) {
		if c.root != ssa.Value(txp) {
			continue
		}
		if c.Method == "Exec" {
			execs = append(execs, c.instr)
			continue
		}
		cmds = append(cmds, c)
	}
	var out []keymodel.QueuedCommand
	var at []ssa.Instruction
	var via [][]implChoice
	for _, c := range cmds {
		after := false
		for _, e := range execs {
			after = after || ssaread.Dominates(e, c.instr)
		}
		if !after {
			out = append(out, c.QueuedCommand)
			at = append(at, c.instr)
			via = append(via, c.via)
		}
	}
	return out, at, via
}

// multiExecs lists the transactions fn sends as command lines (redigo's
// Send("MULTI") ... Do("EXEC")) on one connection, in straight-line code:
// MULTI, the commands, and EXEC in one block.
func (r *Package) multiExecs(fn *ssa.Function) []*Transaction {
	var out []*Transaction
	for _, b := range fn.Blocks {
		open := map[topology.FieldLoad][]keymodel.QueuedCommand{} // by connection (clientKey), since its MULTI
		multiAt := map[topology.FieldLoad]token.Pos{}
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site := r.clientCall(call)
			if site == nil || !site.CommandLine {
				continue
			}
			conn := topology.ClientKey(site.Receiver())
			cmds, inTx := open[conn]
			switch site.Method {
			case "MULTI":
				open[conn], multiAt[conn] = []keymodel.QueuedCommand{}, call.Pos()
			case "EXEC":
				if inTx && !r.testOffCluster(call.Pos(), clients.ClientRoot(site.Receiver())) {
					out = append(out, &Transaction{Name: "MULTI/EXEC", Commands: cmds, Fate: "the server refuses the transaction at EXEC (CROSSSLOT)", At: r.opening(multiAt[conn])})
				}
				delete(open, conn)
			case "DISCARD":
				delete(open, conn)
			default:
				if inTx {
					open[conn] = append(cmds, r.transactionCommand(site))
				}
			}
		}
	}
	return out
}

// transactionFate says what becomes of a go-redis transaction across
// slots: the target's proxy refuses it; else what the module's go-redis
// does (clients.TransactionFate).
func (r *Package) transactionFate(m *types.Func) string {
	if t := r.Options.Target; t.Proxy != "" {
		return t.Name() + " refuses a transaction whose keys are on different slots"
	}
	return clients.TransactionFate(m)
}
