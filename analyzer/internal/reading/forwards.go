package reading

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A command that is the problem whatever its arguments (KEYS, SCAN,
// FLUSHDB), sent on a client that may or may not be a cluster's with
// arguments the function was given, is its callers' to decide:
//
//	func (s *Store) Keys(ctx context.Context, pattern string) []string {
//		return s.rdb.Keys(ctx, pattern).Val() // s.rdb: a redis.UniversalClient
//	}
//
// A forward carries it to them, as a sink carries a wrapper's keys: a
// caller that gives it arguments of its own (s.Keys(ctx, "sess:*")) sends
// the command, and is reported; one that passes on its own parameters
// forwards it in turn. A library's method that no code of the module calls
// stays silent, and so does a mock's.

// A forward is a one-node command a function forwards (see above).
type forward struct {
	problem readiness.ClusterProblem // its Kind, What and Refusal; At unused
	library clients.Library
	where   string // the command's file:line
	client  int    // the client's parameter (1-based), 0 if it is not one
	params  []int  // the parameters its arguments come from (1-based)
}

// A Forwarded is a call that sends, through the function it calls, a
// command forwarded to it (see forward): reported at the call.
type Forwarded struct {
	Problem readiness.ClusterProblem // At: the call
	Library clients.Library
	Via     string // the function called, for messages: Store.Keys
	Where   string // the command's file:line
	Call    ssa.CallInstruction
}

// forwardsOf lists the commands fn forwards: its own calls of a client that
// may be a cluster's, and those of the functions it calls that it passes
// its parameters to.
func (r *Package) forwardsOf(fn *ssa.Function) []forward {
	var out []forward
	for call := range ssaread.CallsIn(fn) {
		if site := r.clientCall(call); site != nil {
			out = append(out, r.forwardsAt(fn, site)...)
			continue
		}
		for _, c := range r.calledForwards(call) {
			if params := paramsOf(fn, c.passed()); len(params) > 0 {
				f := c.forward
				f.params = params
				if v := c.clientAt(); v != nil {
					f.client = clients.ClientParam(v)
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// forwardsAt are the forwards of one client call: none where the client is
// proved a cluster's (reported in place), runs per node, or the call is a
// mock's recording.
func (r *Package) forwardsAt(fn *ssa.Function, site *clients.Site) []forward {
	_, problems, _ := readiness.ClusterProblems(site, r.Options.Target)
	problems = slices.DeleteFunc(problems, func(p readiness.ClusterProblem) bool {
		return !p.Whatever || p.Kind != readiness.OneNode || r.Harmless(p)
	})
	if len(problems) == 0 {
		return nil // most calls: asked first, as it costs least
	}
	params := paramsOf(fn, readiness.ForwardedParams(site.Common.Args[site.RecvArgs():]))
	if len(params) == 0 || r.is(site.Client(), cluster) || r.is(site.Client(), node) || readiness.Records(site) {
		return nil
	}
	var out []forward
	for _, p := range problems {
		p.At = site.CallPos()
		out = append(out, forward{problem: p, library: site.Library, where: r.Where(site.Common.Pos()),
			client: clients.ClientParam(site.Client()), params: params})
	}
	return out
}

// paramsOf numbers those of the parameters that are fn's own.
func paramsOf(fn *ssa.Function, params []*ssa.Parameter) []int {
	var out []int
	for _, p := range params {
		if p.Parent() == fn {
			out = append(out, ssaread.ParamIndex(p))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A calledForward is a forward of the function a call calls, seen from the
// call.
type calledForward struct {
	forward
	via  string
	args []ssa.Value // the call's arguments, the receiver first for a method
}

// passed are the arguments the call gives the forwarded parameters.
func (c calledForward) passed() []*ssa.Parameter {
	var values []ssa.Value
	for _, p := range c.params {
		if p <= len(c.args) {
			values = append(values, c.args[p-1])
		}
	}
	return readiness.ForwardedParams(values)
}

func (c calledForward) clientAt() ssa.Value {
	if c.client > 0 && c.client <= len(c.args) {
		return c.args[c.client-1]
	}
	return nil
}

// calledForwards are the forwards of the function a call calls (of each
// implementation, through an interface method with several), but those
// whose client the call passes as one node's (unless the options include
// single-node clients) or per node.
func (r *Package) calledForwards(call ssa.CallInstruction) []calledForward {
	called, ok := r.calledFunction(call.Common())
	if !ok {
		var out []calledForward
		for _, impl := range r.implementationCalls(call.Common()) {
			out = append(out, r.forwardsOfCalled(impl)...)
		}
		return out
	}
	return r.forwardsOfCalled(called)
}

// forwardsOfCalled are the forwards of one called function, seen from its
// call (see calledForwards).
func (r *Package) forwardsOfCalled(called calledFunction) []calledForward {
	if len(called.summary.forwards) == 0 {
		return nil
	}
	var out []calledForward
	for _, f := range called.summary.forwards {
		c := calledForward{forward: f, via: r.CalleeName(called.obj), args: called.common.Args}
		if v := c.clientAt(); v != nil && (r.is(v, node) || r.leftOut(r.is(v, oneServer))) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// forwardedTo are the forwards a call sends with arguments of its own:
// those it does not pass on.
func (r *Package) forwardedTo(call ssa.CallInstruction) []*Forwarded {
	var out []*Forwarded
	for _, c := range r.calledForwards(call) {
		if len(c.passed()) > 0 || r.testOffCluster(call.Pos(), c.clientAt()) {
			continue
		}
		p := c.problem
		p.At = clients.SiteOf(r.Eval, call.Common()).CallPos()
		out = append(out, &Forwarded{Problem: p, Library: c.library, Via: c.via, Where: c.where, Call: call})
	}
	return out
}
