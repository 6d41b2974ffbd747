package analyzer

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// The cluster-readiness checks report what a cluster refuses or quietly
// does differently besides CROSSSLOT (see readiness.ClusterProblems). Their
// calls are chosen like the CROSSSLOT checks': clients that can reach a
// cluster, and with -include-single-node every client ("what breaks if this
// becomes a cluster client"). A command that is the problem whatever its
// arguments (KEYS, SCAN, FLUSHDB, MOVE) is reported on a client that may be
// a cluster client too, except where the call forwards what its function
// was given (go-zero's Redis.Keys(pattern), redismock's ExpectKeys: the
// callers' to decide) or keeps the command in a field (a mock's); and never
// on per-node code, the fix (readiness.Judge).

// clusterProblems is the database, sortpattern and onenode checks.
var clusterProblems = &unitKind{new: func(p *unitPass) reading.Visitor { return clusterReadiness{pass: p} }}

type clusterReadiness struct {
	hooks
	pass *unitPass
}

// Command reports a client call's cluster problems.
func (u clusterReadiness) Command(c *reading.Command) {
	if c.Site == nil {
		return
	}
	if c.Multi && c.Split != reading.SplitRead {
		u.script(c)
	}
	site := c.Site
	kind, problems, isSite := readiness.ClusterProblems(site, u.pass.target)
	ring := u.Ring(site)
	if what, ok := ringOneShard[site.Method]; !isSite && ok && ring && site.Library == clients.GoRedis {
		// what a cluster client sends to every master, a Ring sends to one shard
		kind, problems, isSite = readiness.OneNode, []readiness.ClusterProblem{{Kind: readiness.OneNode, What: what, At: site.CallPos(), Whatever: true}}, true
	}
	if !isSite {
		return
	}
	u.judge(kind, site, problems, func(p readiness.ClusterProblem) {
		if ring {
			u.pass.report(analysis.Diagnostic{Pos: p.At.Pos, End: p.At.End, Category: CategoryOneNode, Message: ringMessage(p.What)})
			return
		}
		u.report("", site.Library, p)
	})
}

// ringOneShard are go-redis's methods that a ClusterClient runs on every
// master and a Ring, on one shard: the commands they send.
var ringOneShard = map[string]string{"DBSize": "DBSIZE", "ScriptLoad": "SCRIPT LOAD"}

// ringMessage is the finding on a keyspace-wide command a Ring sends to
// one shard, chosen at random (its cmdShard, for a command without keys).
func ringMessage(what string) string {
	remedy := "run it on each shard with ForEachShard"
	switch what {
	case "SCRIPT LOAD":
		remedy = "run it with Script.Run, which sends EVAL where EVALSHA finds no script, or load it on each shard with ForEachShard"
	case "FUNCTION LOAD":
		remedy = "load it on each shard with ForEachShard"
	}
	return fmt.Sprintf("%s on go-redis's Ring runs on one shard, chosen at random, and %s; %s", what, onOne(what, "that shard's keys"), remedy)
}

// Forwarded reports a call that sends, through the function it calls, a
// one-node command with arguments of its own (see reading.Forwarded).
func (u clusterReadiness) Forwarded(f *reading.Forwarded) {
	p := f.Problem
	if p.Kind != readiness.OneNode {
		// a database or a SORT pattern the call's arguments give
		category, msg := u.message("", f.Library, p)
		msg = fmt.Sprintf("%s sends %s (%s) with the arguments of this call: %s", f.Via, f.Command, f.Where, msg)
		u.pass.report(analysis.Diagnostic{Pos: p.At.Pos, End: p.At.End, Category: category, Message: msg})
		u.pass.coverage.tally(category, true, false, token.Position{}, "")
		return
	}
	if u.Proxy() {
		return // the proxy runs it on every shard
	}
	msg := fmt.Sprintf("%s sends %s (%s) on a client that may be a cluster client, where it runs on one node and %s; %s",
		f.Via, p.What, f.Where, onOneNode(p.What), u.oneNodeRemedy(f.Library, p.What))
	u.pass.report(analysis.Diagnostic{Pos: p.At.Pos, End: p.At.End, Category: CategoryOneNode, Message: msg})
	u.pass.coverage.tally(CategoryOneNode, true, false, token.Position{}, "")
}

// judge reports each problem of a site that readiness.Judge says is to be
// reported, and counts the site.
func (u clusterReadiness) judge(kind readiness.ProblemKind, site *clients.Site, problems []readiness.ClusterProblem, report func(readiness.ClusterProblem)) {
	reported, undecided, why := false, false, ""
	for _, p := range problems {
		switch readiness.Judge(site, p, u) {
		case readiness.Undecided:
			if setting := u.databaseSetting(site, p); setting != "" {
				// a database the constructor is given: the wiring says
				p.Undecided, p.What = false, p.What+" (a database its constructor is given)"
				u.pass.withSetting(setting, func() { report(p) })
				reported = true
				break
			}
			undecided = true
			why = undecidedProblem(site, p)
		case readiness.Reported:
			if !p.IfTagless {
				report(p)
				reported = true
				break
			}
			// refused unless a configured prefix is a tag: the wiring says
			setting := u.taglessSetting(site, p)
			if setting == "" {
				undecided, why = true, p.What+" is refused unless a prefix the code does not fix holds a hash tag"
				break
			}
			u.pass.withSetting(setting, func() { report(p) })
			reported = true
		}
	}
	u.pass.coverage.tally(problemCategory[kind], reported, undecided, u.pass.pass.Fset.Position(site.CallPos().Pos), why)
}

// undecidedProblem says why readiness.Judge left a problem undecided.
func undecidedProblem(site *clients.Site, p readiness.ClusterProblem) string {
	what := p.What
	if what == "" {
		what = strings.ToUpper(site.Method)
	}
	if p.Undecided {
		return what + " with an argument the code does not fix"
	}
	return what + " through a function that forwards its arguments, or records them (a mock), on a client that may or may not be a cluster's: its callers decide"
}

// taglessSetting is the setting (see unitPass.reportOnSetting) of a
// problem that holds unless the values its argument leads with hold a
// brace, when they come from a constructor's parameters; "" otherwise.
func (u clusterReadiness) taglessSetting(site *clients.Site, p readiness.ClusterProblem) string {
	line, ok := clients.ReadLine(site)
	if !ok || p.Arg <= 0 || p.Arg >= len(line.Values) || line.Values[p.Arg] == nil || site.Call == nil || site.Eval == nil {
		return ""
	}
	arg := keymodel.Arg{Alts: site.Eval.Keys(line.Values[p.Arg])}
	for _, k := range arg.Alts {
		if len(k) > 0 && k[0].Unknown && k[0].Param > 0 {
			return "" // the function's own parameter: its callers decide (reading.Forwarded)
		}
	}
	return u.pass.TaglessSetting(site.Call.Parent(), []keymodel.Arg{arg})
}

// databaseSetting is the setting (see unitPass.reportOnSetting) of a
// database the code does not fix (SELECT q.db) when it comes from a
// constructor's parameters; "" otherwise.
func (u clusterReadiness) databaseSetting(site *clients.Site, p readiness.ClusterProblem) string {
	if p.Kind != readiness.OtherDatabase || p.Arg <= 0 || site.Call == nil {
		return ""
	}
	line, ok := clients.ReadLine(site)
	if !ok || p.Arg >= len(line.Values) || line.Values[p.Arg] == nil {
		return ""
	}
	return u.pass.DatabaseSetting(line.Values[p.Arg])
}

// The setting of readiness.Judge: what the call's client talks to, and the
// target's databases.

func (u clusterReadiness) PerNode(site *clients.Site) bool { return u.topology(site).Node }
func (u clusterReadiness) Cluster(site *clients.Site) bool { return u.topology(site).Cluster }
func (u clusterReadiness) Ring(site *clients.Site) bool    { return u.topology(site).Ring }
func (u clusterReadiness) Splits(site *clients.Site) bool  { return u.topology(site).Splits }

func (u clusterReadiness) topology(site *clients.Site) topology.Topology {
	return u.pass.TopologyAt(site)
}

func (u clusterReadiness) Harmless(p readiness.ClusterProblem) bool { return u.pass.Harmless(p) }

func (u clusterReadiness) Databases() int { return u.pass.target.DatabaseCount() }

func (u clusterReadiness) Proxy() bool { return u.pass.target.Proxy != "" }

// script judges the commands a script's Lua sends as the client's own: a
// cluster runs the script on the node of its keys, where SELECT 2 is
// refused, KEYS, SCAN and RANDOMKEY see that node's keys and FLUSHDB clears
// them (checked on the three-master cluster).
func (u clusterReadiness) script(c *reading.Command) {
	site := c.Site
	src, script, ok := u.pass.ReadScript(site)
	if !ok {
		return
	}
	for _, line := range script.Lines {
		kind, problems, isSite := readiness.LineProblems(line.Argv, u.pass.target)
		if !isSite {
			continue
		}
		for i := range problems {
			if problems[i].Undecided {
				problems[i].Arg = 0 // an index in the Lua's line, not the call's
			}
		}
		u.judge(kind, site, problems, func(p readiness.ClusterProblem) {
			u.pass.reportInScript(src, line.Line, "", site, problemCategory[p.Kind], u.scriptMessage(site, p))
		})
	}
}

// onOneNode says what a command that a cluster client sends to one node
// does there.
func onOneNode(what string) string { return onOne(what, "the keys of that node's slots") }

// onOne says what a command sent to one server of several does there,
// keys naming the keys that server holds ("that shard's keys").
func onOne(what, keys string) string {
	switch what {
	case "FLUSHDB", "FLUSHALL":
		return "clears only " + keys
	case "DBSIZE":
		return "counts only " + keys
	case "SCRIPT LOAD":
		return "loads the script there only: an EVALSHA of it fails with NOSCRIPT on the others"
	case "FUNCTION LOAD":
		return "loads the library there only: an FCALL of its functions fails on the others (ERR Function not found)"
	}
	return "sees only " + keys
}

// scriptMessage is a script's problem as a finding says it.
func (u clusterReadiness) scriptMessage(site *clients.Site, p readiness.ClusterProblem) string {
	switch {
	case p.Kind == readiness.OneNode && u.Ring(site):
		// a Ring sends the script to its first key's shard (cmdShard)
		remedy := "keep the keys it looks for in a set, or run it from the client on each shard with ForEachShard"
		if p.What == "FLUSHDB" || p.What == "FLUSHALL" {
			remedy = "run it from the client on each shard with ForEachShard"
		}
		return fmt.Sprintf("%s script's %s runs on go-redis's Ring on the shard of the script's first key and %s; %s", site.Method, p.What, onOne(p.What, "that shard's keys"), remedy)
	case p.Kind == readiness.OneNode:
		remedy := "keep the keys it looks for in a set, or run it from the client on each master"
		if p.What == "FLUSHDB" || p.What == "FLUSHALL" {
			remedy = "run it from the client on each master"
		}
		return fmt.Sprintf("%s script's %s runs on the node of the script's keys and %s; %s", site.Method, p.What, onOneNode(p.What), remedy)
	case p.Kind == readiness.SortPattern:
		return fmt.Sprintf("%s script's SORT %s %s (%s); %s", site.Method, p.What, p.Why, p.Refusal, u.sortRemedy(p))
	}
	return fmt.Sprintf("%s script's %s needs a database other than 0, which a cluster does not have (%s); tell data apart by key prefix instead", site.Method, p.What, p.Refusal)
}

// problemCategory is each problem's check.
var problemCategory = map[readiness.ProblemKind]string{
	readiness.OtherDatabase:   CategoryDatabase,
	readiness.DroppedDatabase: CategoryDatabase,
	readiness.SortPattern:     CategorySortPattern,
	readiness.OneNode:         CategoryOneNode,
}

// ClientMade reports a client made with a database other than 0 (go-redis's
// DB, rueidis's SelectDB, redigo's DialDatabase): dropped by a cluster
// client, refused by a cluster node; and counts one whose database the code
// does not fix as undecided.
func (u clusterReadiness) ClientMade(m *reading.ClientMade) {
	switch {
	case readiness.HasDatabase(m.Problem, u.Databases()):
		u.pass.coverage.tally(CategoryDatabase, false, false, token.Position{}, "")
		return
	case m.Problem.Undecided && !m.OneServer && m.Problem.Value != nil && u.pass.DatabaseSetting(m.Problem.Value) != "":
		// a database the constructor is given: the wiring says
		p := m.Problem
		p.Undecided, p.What = false, p.What+" (a database its constructor is given)"
		u.pass.withSetting(u.pass.DatabaseSetting(p.Value), func() { u.report(m.Constructor, clients.GoRedis, p) })
		u.pass.coverage.tally(CategoryDatabase, true, false, token.Position{}, "")
		return
	case m.Problem.Undecided:
		u.pass.coverage.tally(CategoryDatabase, false, true, u.pass.pass.Fset.Position(m.Call.Pos()), m.Constructor+" with a database the code does not fix")
		return
	case m.OneServer:
		u.pass.coverage.tally(CategoryDatabase, false, true, u.pass.pass.Fset.Position(m.Call.Pos()),
			m.Problem.What+" on a client of one server: a cluster only if pointed at one (readiness judges it as a cluster's)")
		return
	}
	u.report(m.Constructor, clients.GoRedis, m.Problem)
	u.pass.coverage.tally(CategoryDatabase, true, false, token.Position{}, "")
}

// scriptLoads is the fix for a SCRIPT LOAD sent to one node, by client
// library: a load on every master, or a script helper that falls back to
// EVAL where the script is missing.
var scriptLoads = map[clients.Library]string{
	clients.GoRedis: "load it with the cluster client's ScriptLoad, which loads it on every master, or run it with Script.Run",
	clients.Rueidis: "run it with NewLuaScript(...).Exec, which sends EVAL where EVALSHA finds no script",
	clients.Redigo:  "run it with redis.Script's Do, which sends EVAL where EVALSHA finds no script",
}

// sortRemedy is the fix for a SORT pattern the target refuses: on a
// target that accepts a pattern on the sorted key's slot, that pattern;
// before, the releases that do.
func (u clusterReadiness) sortRemedy(p readiness.ClusterProblem) string {
	switch {
	case !u.pass.target.SortPatternsBySlot():
		return "sort in the client, keep the values in the sorted key, or move to Redis 7.4 or Valkey 8.0 and begin the pattern with the sorted key's hash tag"
	case p.What == `GET "#"`:
		return "read the sorted elements without GET #, or move to Redis 7.4.2 or Valkey 8.1, which accept it"
	}
	return "begin the pattern with the sorted key's hash tag (SORT {u}:ids BY {u}:w_*), or sort in the client"
}

// oneNodeRemedy is the fix for a command a cluster client sends to one
// node: a load on every master for SCRIPT LOAD, CLUSTERSCAN for a scan on
// a target that has it, else a run on each master.
func (u clusterReadiness) oneNodeRemedy(lib clients.Library, what string) string {
	if (what == "SCAN" || what == "KEYS") && u.pass.target.ClusterScan() && lib != clients.Glide {
		return fmt.Sprintf("on %s, iterate with CLUSTERSCAN, whose one cursor walks every slot, or %s", u.pass.target.Name(), eachNode[lib])
	}
	return oneNodeRemedy(lib, what)
}

// oneNodeRemedy is the fix for a command a cluster client sends to one
// node, whatever the target: a load on every master for SCRIPT LOAD, else
// a run on each master.
func oneNodeRemedy(lib clients.Library, what string) string {
	switch {
	case what == "SCRIPT LOAD":
		return scriptLoads[lib]
	case what == "SCAN" && lib == clients.Glide:
		return "walk every slot with the cluster client's Scan from models.NewClusterScanCursor()"
	case lib == clients.Glide: // a keyspace-wide command in an atomic batch
		return "send it outside the atomic batch, where GLIDE runs it on every primary"
	}
	return eachNode[lib]
}

// report reports one problem; option names the constructor whose option it
// is, "" for a command.
func (u clusterReadiness) report(option string, lib clients.Library, p readiness.ClusterProblem) {
	category, msg := u.message(option, lib, p)
	u.pass.report(analysis.Diagnostic{Pos: p.At.Pos, End: p.At.End, Category: category, Message: msg})
}

// message is one problem's check and finding (see report).
func (u clusterReadiness) message(option string, lib clients.Library, p readiness.ClusterProblem) (category, msg string) {
	what := p.What
	if option != "" && !strings.HasPrefix(p.What, option) { // DialDatabase 2 names itself
		what = option + " option " + p.What
	}
	switch p.Kind {
	case readiness.OtherDatabase:
		category = CategoryDatabase
		msg = fmt.Sprintf("%s needs a database other than 0, which a cluster does not have (%s); tell data apart by key prefix instead", what, p.Refusal)
		if t := u.pass.target; t.DatabaseCount() > 1 {
			msg = fmt.Sprintf("%s needs a database the cluster does not have: %s has databases 0 to %d; use one of those, or tell data apart by key prefix", what, t.Name(), t.DatabaseCount()-1)
		}
	case readiness.DroppedDatabase:
		category = CategoryDatabase
		msg = fmt.Sprintf("%s is dropped: for several addresses %s makes a cluster client, which reads and writes database 0; tell data apart by key prefix instead", what, option)
		switch {
		case p.AddrsUncounted && p.DB >= 0 && u.pass.target.DatabaseCount() > p.DB:
			msg = fmt.Sprintf("%s is dropped if the addresses are several: %s then makes a cluster client, which reads and writes database 0; tell data apart by key prefix instead", what, option)
		case p.AddrsUncounted:
			msg = fmt.Sprintf("%s is dropped or refused on a cluster: for several addresses %s makes a cluster client, which reads and writes database 0, and for one address a plain client, whose SELECT a cluster node refuses (%s); tell data apart by key prefix instead", what, option, p.Refusal)
		}
	case readiness.SortPattern:
		category = CategorySortPattern
		msg = fmt.Sprintf("SORT %s %s (%s); %s", what, p.Why, p.Refusal, u.sortRemedy(p))
	case readiness.OneNode:
		category = CategoryOneNode
		msg = fmt.Sprintf("%s on a cluster client runs on one node and %s; %s", what, onOneNode(p.What), u.oneNodeRemedy(lib, p.What))
	}
	return category, msg
}
