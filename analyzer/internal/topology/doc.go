// Package topology is what a client value talks to: one server, a
// cluster, one node of a cluster reached per node, go-redis's Ring, or
// either, and whether a cluster client splits multi-key commands by slot.
// TopologyOf is the one entry point (topology.go), with one answer per
// client (a field's loads share one); the predicates behind it follow a
// value to every origin the package shows (AllOrigins): singlenode.go (one
// server, and guards that rule a cluster out), pernode.go (the nodes of a
// cluster), splitting.go (command-info resolvers). The client types and
// constructors themselves are told apart in clients/cluster.go. LeftOut is
// the one place the options' IncludeSingleNode and a proxy target decide
// which clients the checks leave out.
//
// What a called function returns or runs its callbacks on comes from the
// reading's summaries through Callees. It imports clients, eval and
// ssaread, never reading or the analyzer.
package topology
