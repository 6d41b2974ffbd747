package readiness

import "github.com/crossslot/crossslot/analyzer/internal/clients"

// A Verdict is what becomes of one problem of a call.
type Verdict int

const (
	Fine      Verdict = iota // the cluster has it, or the code is the fix
	Undecided                // counted, not reported: the code does not decide
	Reported
)

// A Setting is what a verdict asks beyond the call: what its client talks
// to (the reading's topology), and what the target's cluster has.
type Setting interface {
	// PerNode: the client is one node of a cluster, used as such (the fix
	// for a keyspace-wide command).
	PerNode(site *clients.Site) bool
	// Cluster: the client is surely a cluster client.
	Cluster(site *clients.Site) bool
	// Ring: the client is go-redis's Ring, whose shards are plain servers
	// (every database, every SORT pattern) and which sends a command
	// without keys to one shard, chosen at random.
	Ring(site *clients.Site) bool
	// Splits: a go-redis cluster client given a command-info resolver,
	// which runs the keyspace-wide commands of clients.AllShards on every
	// master.
	Splits(site *clients.Site) bool
	// Harmless: the package copes with what the problem does (an EVALSHA
	// that meets NOSCRIPT on another node sends the script).
	Harmless(p ClusterProblem) bool
	// Databases is how many databases the target's cluster has: 1, or N
	// for Valkey 9 with cluster-databases N.
	Databases() int
	// Proxy: a proxy fronts the target's cluster (Azure Managed Redis's
	// Enterprise clustering, Redis Software), and runs the keyspace-wide
	// commands on every shard behind its one endpoint.
	Proxy() bool
}

// Judge decides one problem of a call (or of its script's Lua): on a
// Ring, a keyspace-wide command is reported and the rest is fine;
// undecided when an argument that decides is not fixed, or when code that
// passes on its function's arguments, or a mock's recording, runs on a
// client that may be either (its callers' to decide); fine for a database
// the target's cluster has, for per-node code (the fix), and for what the
// client or the package copes with.
func Judge(site *clients.Site, p ClusterProblem, s Setting) Verdict {
	switch {
	case s.Ring(site):
		if p.Kind == OneNode && !s.PerNode(site) {
			return Reported
		}
		return Fine
	case p.Undecided:
		return Undecided
	case HasDatabase(p, s.Databases()), p.Kind == OneNode && (s.PerNode(site) || s.Proxy()):
		return Fine
	case s.Harmless(p):
		return Fine
	case p.Whatever && !s.Cluster(site) && (Forwards(site) || Records(site)):
		// a mock's recording runs nothing; a forwarding method's callers
		// decide, and are reported (reading.Forwarded)
		return Undecided
	case p.Kind == OneNode && site.Library == clients.GoRedis && clients.AllShards[site.Method] && s.Splits(site):
		return Fine // run on every master by the client's resolver
	}
	return Reported
}

// HasDatabase reports whether a cluster of that many databases has the
// database a problem needs: Valkey 9 with cluster-databases N has databases
// 0 to N-1.
func HasDatabase(p ClusterProblem, databases int) bool {
	return p.Kind == OtherDatabase && !p.Undecided && p.DB >= 0 && p.DB < databases
}
