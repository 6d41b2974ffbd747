package analyzer

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// CategoryKeyspace is the check of keyspace notifications on a cluster.
const CategoryKeyspace = "keyspace"

// keyspaceNotifications is the keyspace check: every node of a cluster
// publishes the keyspace notifications of its own keys only, and a cluster
// client subscribes on one node and sends CONFIG SET to one node (checked
// on a three-master cluster: go-redis's ClusterClient.PSubscribe received
// 11 of 30 events, rueidis's Receive 8; ConfigSet reached 1 of 3 masters).
// As for onenode, a client that may be either is counted, not reported.
var keyspaceNotifications = &unitKind{new: func(p *unitPass) reading.Visitor { return keyspace{pass: p} }}

type keyspace struct {
	hooks
	pass *unitPass
}

func (u keyspace) Command(c *reading.Command) {
	if c.Site == nil {
		return
	}
	what, undecided, site := readiness.KeyspaceEvents(c.Site)
	if !site {
		return
	}
	reported, why := false, ""
	if undecided {
		why = "a channel or setting the code does not fix"
	}
	switch {
	case what == "":
	case u.pass.TopologyAt(c.Site).Node: // subscribed on each node: the fix
	case u.pass.Undecided(c.Site) && (readiness.Forwards(c.Site) || readiness.Records(c.Site)):
		undecided = true // a forwarding method on a client that may be either
		why = what + " through a function that forwards its arguments, or records them (a mock), on a client that may or may not be a cluster's: its callers decide"
	default:
		does := "listens on one node, and each node publishes the notifications of its own keys only: it receives one node's share of them"
		if what == "CONFIG SET notify-keyspace-events" {
			does = "configures one node: the others publish no notifications"
		}
		at := c.Site.CallPos()
		u.pass.report(analysis.Diagnostic{Pos: at.Pos, End: at.End, Category: CategoryKeyspace,
			Message: fmt.Sprintf("%s on a cluster client %s; %s", what, does, eachNode[c.Site.Library])})
		reported = true
	}
	u.pass.coverage.tally(CategoryKeyspace, reported, undecided, u.pass.pass.Fset.Position(c.Site.CallPos().Pos), why)
}
