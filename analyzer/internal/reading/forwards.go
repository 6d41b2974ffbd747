package reading

import (
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
	"github.com/crossslot/crossslot/internal/commands"
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

// A command whose problem its arguments decide (MOVE k db, SELECT db,
// SORT k BY prefix+"_*") is forwarded the same way when the arguments that
// decide are the function's parameters: its callers' values are put into
// the command line, which is judged again at each call that fixes them.
//
//	func (s *Store) Archive(ctx context.Context, k string, db int) error {
//		return s.rdb.Move(ctx, k, db).Err()
//	}
//	s.Archive(ctx, k, 3) // MOVE k 3: refused
//
// A forward is a command a function forwards (see above).
type forward struct {
	problem readiness.ClusterProblem // its Kind, What and Refusal; At unused
	library clients.Library
	where   string // the command's file:line
	client  int    // the client's parameter (1-based), 0 if it is not one
	params  []int  // the parameters its arguments come from (1-based)
	// line is the command line of a problem its callers' arguments decide,
	// nil for one that is the problem whatever they are (KEYS).
	line *valuedLine
}

// A valuedLine is a command line whose deciding arguments are the
// function's parameters: the arguments the function fixes, and a hole for
// each argument a caller fills.
type valuedLine struct {
	argv  []commands.Arg
	holes []lineHole
}

// A lineHole is an argument of a valuedLine that callers fill: an integer
// parameter's value (a database), or a text whose summary has parameter
// parts (a SORT pattern).
type lineHole struct {
	arg    int            // the argument's index in the line
	number int            // the integer parameter (1-based), 0 for a text
	text   []keymodel.Key // the text's alternatives, in terms of parameters
}

// params are the parameters the holes are filled from (1-based).
func (l *valuedLine) params() []int {
	var out []int
	for _, h := range l.holes {
		if h.number > 0 {
			out = append(out, h.number)
		}
		for _, k := range h.text {
			for _, p := range k {
				if p.Param > 0 {
					out = append(out, p.Param)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A Forwarded is a call that sends, through the function it calls, a
// command forwarded to it (see forward): reported at the call.
type Forwarded struct {
	Problem readiness.ClusterProblem // At: the call
	Library clients.Library
	Via     string // the function called, for messages: Store.Keys
	Command string // the command it sends, for messages: COPY
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
			if c.line != nil {
				if line, passed := r.fillLine(c, call); passed {
					f := c.forward
					f.line, f.params = line, line.params()
					if v := c.clientAt(); v != nil {
						f.client = clients.ClientParam(v)
					}
					out = append(out, f)
				}
				continue
			}
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
	if f, ok := r.valuedForward(fn, site, problems); ok {
		return []forward{f}
	}
	problems = slices.DeleteFunc(problems, func(p readiness.ClusterProblem) bool {
		return !p.Whatever || p.Kind != readiness.OneNode || r.Harmless(p)
	})
	if len(problems) == 0 {
		return nil // most calls: asked first, as it costs least
	}
	params := paramsOf(fn, readiness.ForwardedParams(site.Common.Args[site.RecvArgs():]))
	if len(params) == 0 || r.topo.IsAt(site.Call, site.Client(), topology.Cluster) || r.topo.Is(site.Client(), topology.Node) || readiness.Records(site) {
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

// valuedForward is the forward of a call whose problem is undecided, or
// holds unless a value is a tag, because arguments that decide are fn's
// parameters (see valuedLine): a
// database or a SORT pattern, on a client that may be a cluster's (or is).
func (r *Package) valuedForward(fn *ssa.Function, site *clients.Site, problems []readiness.ClusterProblem) (forward, bool) {
	i := slices.IndexFunc(problems, func(p readiness.ClusterProblem) bool {
		return (p.Undecided || p.IfTagless) && (p.Kind == readiness.OtherDatabase || p.Kind == readiness.SortPattern)
	})
	if i < 0 || r.topo.Is(site.Client(), topology.Node) || r.topo.LeftOutSite(site) || readiness.Records(site) {
		return forward{}, false
	}
	l, ok := clients.ReadLine(site)
	if !ok {
		return forward{}, false
	}
	line := &valuedLine{argv: l.Argv}
	for j, a := range l.Argv {
		if a.Known || j >= len(l.Values) || l.Values[j] == nil {
			continue
		}
		v := ssaread.UnwrapInterface(l.Values[j])
		if p, ok := v.(*ssa.Parameter); ok && p.Parent() == fn && readiness.IsNumber(p.Type()) {
			line.holes = append(line.holes, lineHole{arg: j, number: ssaread.ParamIndex(p)})
			continue
		}
		if !ssaread.IsString(v.Type()) {
			continue
		}
		if text := r.Eval.Keys(v); hasParam(text) {
			line.holes = append(line.holes, lineHole{arg: j, text: text})
		}
	}
	if len(line.holes) == 0 {
		return forward{}, false
	}
	p := problems[i]
	p.What = l.Name
	return forward{problem: p, library: site.Library, where: r.Where(site.Common.Pos()),
		client: clients.ClientParam(site.Client()), params: line.params(), line: line}, true
}

// hasParam reports alternatives with a part a caller fills.
func hasParam(keys []keymodel.Key) bool {
	for _, k := range keys {
		for _, p := range k {
			if p.Param > 0 {
				return true
			}
		}
	}
	return false
}

// fillLine puts a call's arguments into the holes of a forwarded line:
// passed says some are the calling function's own parameters, and the line
// is forwarded in turn with the holes they fill.
func (r *Package) fillLine(c calledForward, call ssa.CallInstruction) (line *valuedLine, passed bool) {
	fn := call.Parent()
	line = &valuedLine{argv: slices.Clone(c.line.argv)}
	fresh := r.Eval.ID(call.Common().Value) + "@" + r.Where(call.Pos())
	for _, h := range c.line.holes {
		if h.number > 0 {
			if h.number > len(c.args) {
				continue
			}
			arg := ssaread.UnwrapInterface(c.args[h.number-1])
			if n, ok := ssaread.ConstInt(arg); ok {
				line.argv[h.arg] = commands.Arg{Text: strconv.FormatInt(n, 10), Known: true}
			} else if p, ok := arg.(*ssa.Parameter); ok && p.Parent() == fn && readiness.IsNumber(p.Type()) {
				line.holes = append(line.holes, lineHole{arg: h.arg, number: ssaread.ParamIndex(p)})
			}
			continue
		}
		var text []keymodel.Key
		for _, k := range h.text {
			text = append(text, r.Eval.Instantiate(k, c.args, fresh, 0, map[ssa.Value]bool{})...)
		}
		if hasParam(text) {
			line.holes = append(line.holes, lineHole{arg: h.arg, text: text})
			continue
		}
		line.argv[h.arg] = clients.PatternOf(text)
	}
	return line, len(line.holes) > 0
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
	// A forward whose client the call passes where a check of it ruled a
	// cluster client out is left out as the client's own call there is.
	return slices.DeleteFunc(r.forwardsOfCall(call), func(c calledForward) bool {
		v := c.clientAt()
		return v != nil && r.topo.LeftOutCall(call, v)
	})
}

func (r *Package) forwardsOfCall(call ssa.CallInstruction) []calledForward {
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
		if v := c.clientAt(); v != nil && (r.topo.Is(v, topology.Node) || r.topo.LeftOut(r.topo.Is(v, topology.OneServer))) {
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
		if r.testOffCluster(call.Pos(), c.clientAt()) {
			continue
		}
		if c.line != nil {
			out = append(out, r.sentLine(c, call)...)
			continue
		}
		if len(c.passed()) > 0 {
			continue
		}
		p := c.problem
		p.At = clients.SiteOf(r.Eval, call.Common()).CallPos()
		out = append(out, &Forwarded{Problem: p, Library: c.library, Via: c.via, Command: p.What, Where: c.where, Call: call})
	}
	return out
}

// sentLine is what a call sends through a forwarded line whose holes its
// arguments fill: the problems of the line, judged again (a database the
// target's cluster has is fine).
func (r *Package) sentLine(c calledForward, call ssa.CallInstruction) []*Forwarded {
	line, passed := r.fillLine(c, call)
	if passed {
		return nil
	}
	_, problems, _ := readiness.LineProblems(line.argv, r.Options.Target)
	var out []*Forwarded
	for _, p := range problems {
		if p.Undecided || p.IfTagless || readiness.HasDatabase(p, r.Options.Target.DatabaseCount()) {
			continue
		}
		p.At = clients.SiteOf(r.Eval, call.Common()).CallPos()
		out = append(out, &Forwarded{Problem: p, Library: c.library, Via: c.via, Command: line.argv[0].Text, Where: c.where, Call: call})
	}
	return out
}
