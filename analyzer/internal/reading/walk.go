package reading

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// A Command is one command a function sends: a call of a client (Site set),
// or a multi-key command of a wrapper it calls (Wrapper set), with the keys
// the call gives it.
type Command struct {
	Method string
	Keys   []keymodel.Arg
	// Multi: the method can carry two or more keys, to be judged together.
	Multi bool
	// Site is the call of the client; nil through a wrapper.
	Site *clients.Site
	// Wrapper is the wrapper that runs the command; nil for a call of the
	// client. Only the keys that came from the call's arguments (ViaCall)
	// are the call's to judge: the wrapper's own are judged in it.
	Wrapper *Wrapper
	// Split says whether a go-redis cluster client given a command-info
	// resolver splits the command by slot (see splitting.go).
	Split Split
	// Script holds, through a wrapper, the keys its script touches besides
	// KEYS[i] that the call's arguments decide.
	Script []ScriptKey
	// Worlds are the keys read again in each world that decides them (see
	// eval.World), for a call of the client whose keys an option or a
	// field of several writers picks.
	Worlds []WorldKeys
	// Wired says where the command's client comes from when the wiring
	// decides it (see WiringOf): its findings are judged there.
	Wired Wiring
}

// Channels says whether the command's keys are sharded pub/sub channels
// (SSUBSCRIBE, SUNSUBSCRIBE), which follow the keys' slots.
func (c *Command) Channels() bool {
	return clients.ShardedPubSub[c.Method]
}

// Name is the command the call sends: the name of a raw command line
// (Do("RENAME", ...) is RENAME), else the method's.
func (c *Command) Name() string {
	if c.Site != nil {
		if name, _, _, ok := clients.CommandLine(c.Site); ok && name != "" {
			return name
		}
	}
	return c.Method
}

// A Wrapper is a function whose parameters reach a client command, seen
// from one call of it.
type Wrapper struct {
	Name  string    // for messages: pair, Repo.rename, store.Pair
	Where string    // the command's file:line
	Pos   token.Pos // the command, when it is in this package
	Call  ssa.CallInstruction
}

// Split is what a client that splits commands by slot does with one.
type Split int

const (
	NotSplit   Split = iota
	SplitRead        // split by slot and the replies merged: fine
	SplitWrite       // split by slot: it does not fail, but is not atomic
	// SplitAlways: a write the client always splits by slot (GLIDE's DEL,
	// UNLINK, MSET): not atomic either, which matters only for one
	// entity's keys; keys of different entities written together are not
	// meant to be one write.
	SplitAlways
	// SplitBarred: a command the client splits elsewhere, queued in an
	// atomic batch, which runs on one node: refused like any other.
	SplitBarred
	// SplitByProxy: a write the target's proxy splits by slot (DEL, MSET,
	// TOUCH, UNLINK): not atomic, as SplitAlways.
	SplitByProxy
)

// A ClientMade is a client constructor call whose options a cluster does
// not honour (a database other than 0).
type ClientMade struct {
	Call        *ssa.Call
	Constructor string // NewClient, NewUniversalClient, DialDatabase, ...
	Problem     readiness.ClusterProblem
	// OneServer: a client of one server (a cluster only if pointed at
	// one), which the options leave out unless they include single-node
	// clients.
	OneServer bool
}

// A Visitor is told, by Walk, what a function sends, in order: each
// command's keys, then the command; then the function's transactions and
// the clients it makes.
type Visitor interface {
	Key(c *Command, k keymodel.Arg)
	Command(c *Command)
	Transaction(t *Transaction)
	ClientMade(m *ClientMade)
	Forwarded(f *Forwarded)
}

// Walk tells v what fn sends. Calls on single-node clients are left out
// unless the options include them, and so are calls in _test.go files
// whose client is not proved to be a cluster client.
func (r *Package) Walk(fn *ssa.Function, v Visitor) {
	r.commandsIn(fn, func(site *clients.Site) {
		if r.testOffCluster(site.Common.Pos(), site.Client()) {
			return
		}
		keys, multi := r.keysOf(site)
		c := &Command{Method: site.Method, Keys: keys, Multi: multi, Site: site, Wired: r.WiringOf(site.Call, site.Client())}
		if multi {
			c.Split = r.split(site)
			c.Worlds = r.worldsOf(site)
		}
		for _, k := range keys {
			v.Key(c, k)
		}
		v.Command(c)
	}, func(call ssa.CallInstruction, s calledSink) {
		if r.testOffCluster(call.Pos(), s.clientAt()) {
			return
		}
		c := &Command{Method: s.method, Keys: s.keys, Multi: true, Script: s.script, Worlds: s.worlds,
			Wrapper: &Wrapper{Name: r.CalleeName(s.callee), Where: s.where, Pos: s.pos, Call: call}, Wired: r.WiringOf(call, s.clientAt())}
		for _, k := range s.keys {
			if k.ViaCall {
				v.Key(c, k)
			}
		}
		v.Command(c)
	})
	for call := range ssaread.CallsIn(fn) {
		for _, f := range r.forwardedTo(call) {
			v.Forwarded(f)
		}
	}
	for _, t := range r.transactions(fn) {
		v.Transaction(t)
	}
	for call := range ssaread.CallsIn(fn) {
		for _, t := range r.calledTransactions(call) {
			v.Transaction(t.Transaction)
		}
	}
	for _, m := range r.clientsMade(fn) {
		v.ClientMade(m)
	}
}

// Functions are the package's source functions and their literals, in
// source order.
func (r *Package) Functions() []*ssa.Function { return r.funcs }

// split says what a client that splits by slot does with a multi-key
// command: GLIDE's cluster client always, a go-redis cluster client given
// a command-info resolver.
func (r *Package) split(site *clients.Site) Split {
	if r.Options.Target.Proxy != "" {
		name := site.Method
		if n, _, _, ok := clients.CommandLine(site); ok && n != "" {
			name = n
		}
		switch name = strings.ToUpper(name); {
		case !r.Options.Target.ProxySplits(name):
		case name == "MGET" || name == "EXISTS":
			return SplitRead
		default:
			return SplitByProxy
		}
	}
	if site.Library == clients.Glide {
		switch {
		case clients.GlideAtomic(clients.GlideBatch(site)):
			if clients.GlideSplitReads[site.Method] || clients.GlideSplitWrites[site.Method] {
				return SplitBarred
			}
			return NotSplit // one node, one slot: the batch's transaction
		case clients.GlideSplitReads[site.Method]:
			return SplitRead
		case clients.GlideSplitWrites[site.Method]:
			return SplitAlways
		}
		return NotSplit
	}
	if site.Library != clients.GoRedis || !(clients.SplitReads[site.Method] || clients.SplitWrites[site.Method]) || !r.topo.Is(site.Client(), topology.Splits) {
		return NotSplit
	}
	if clients.SplitReads[site.Method] {
		return SplitRead
	}
	return SplitWrite
}

// clientsMade lists the clients fn makes with a database option (go-redis,
// rueidis, valkey-go, redigo's dial option), leaving out those of tests off
// a cluster.
func (r *Package) clientsMade(fn *ssa.Function) []*ClientMade {
	var out []*ClientMade
	for call := range ssaread.CallsIn(fn) {
		c, ok := call.(*ssa.Call)
		if !ok {
			continue
		}
		p, ok := readiness.DatabaseOption(c, r.Eval)
		if !ok || r.testOffCluster(c.Pos(), c) {
			continue
		}
		out = append(out, &ClientMade{Call: c, Constructor: ssaread.CalledFunc(&c.Call).Name(), Problem: p,
			OneServer: r.topo.LeftOut(p.Kind == readiness.OtherDatabase && !p.OnCluster)})
	}
	return out
}
