package readiness

import (
	"testing"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
)

// setting is a Setting whose answers a test gives.
type setting struct {
	perNode, cluster, ring, splits, harmless, proxy bool
	databases                                       int
}

func (s setting) PerNode(*clients.Site) bool   { return s.perNode }
func (s setting) Cluster(*clients.Site) bool   { return s.cluster }
func (s setting) Ring(*clients.Site) bool      { return s.ring }
func (s setting) Splits(*clients.Site) bool    { return s.splits }
func (s setting) Harmless(ClusterProblem) bool { return s.harmless }
func (s setting) Databases() int               { return max(s.databases, 1) }
func (s setting) Proxy() bool                  { return s.proxy }

// TestJudge pins each verdict on its own, against the one beside it that
// differs by one answer. (Calls that pass on their function's arguments
// are read from code: the analyzer's readiness fixtures.)
func TestJudge(t *testing.T) {
	flush := &clients.Site{Library: clients.GoRedis, Method: "FlushDB"}
	keys := &clients.Site{Library: clients.GoRedis, Method: "Keys"}
	oneNode := ClusterProblem{Kind: OneNode, What: "FLUSHDB", Whatever: true}
	select2 := ClusterProblem{Kind: OtherDatabase, What: "SELECT 2", DB: 2}
	for _, tc := range []struct {
		name string
		site *clients.Site
		p    ClusterProblem
		s    setting
		want Verdict
	}{
		{"a keyspace-wide command on a cluster client", flush, oneNode, setting{cluster: true}, Reported},
		{"the same on one node of it", flush, oneNode, setting{cluster: true, perNode: true}, Fine},
		{"FLUSHDB on a client whose resolver runs it on every master", flush, oneNode, setting{cluster: true, splits: true}, Fine},
		{"KEYS on the same client: not split", keys, ClusterProblem{Kind: OneNode, What: "KEYS", Whatever: true}, setting{cluster: true, splits: true}, Reported},
		{"SELECT 2 on a cluster of database 0", keys, select2, setting{cluster: true}, Reported},
		{"SELECT 2 on Valkey 9 with 16 databases", keys, select2, setting{cluster: true, databases: 16}, Fine},
		{"SELECT 2 on Valkey 9 with 2 databases", keys, select2, setting{cluster: true, databases: 2}, Reported},
		{"a database the code does not fix", keys, ClusterProblem{Kind: OtherDatabase, Undecided: true, DB: -1}, setting{cluster: true, databases: 16}, Undecided},
		{"FLUSHDB behind a proxy, which runs it on every shard", flush, oneNode, setting{proxy: true}, Fine},
		{"SELECT 2 behind a proxy: database 0 only", keys, select2, setting{proxy: true}, Reported},
		{"FLUSHDB on a Ring: one shard", flush, oneNode, setting{ring: true}, Reported},
		{"SELECT 2 on a Ring of plain servers", keys, select2, setting{ring: true}, Fine},
		{"a database the code does not fix, on a Ring", keys, ClusterProblem{Kind: OtherDatabase, Undecided: true, DB: -1}, setting{ring: true}, Fine},
		{"a problem the package copes with", keys, ClusterProblem{Kind: OneNode, What: "SCRIPT LOAD"}, setting{cluster: true, harmless: true}, Fine},
	} {
		if got := Judge(tc.site, tc.p, tc.s); got != tc.want {
			t.Errorf("%s: Judge = %d, want %d", tc.name, got, tc.want)
		}
	}
}
