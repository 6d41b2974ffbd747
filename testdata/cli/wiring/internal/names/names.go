// Package names keeps names under a namespace that its constructor sets and
// a method changes to a tag: a finding that holds as the constructor sets
// it waits for the program, which calls the method for Names and not for
// Labels.
package names

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Names are user names.
type Names struct {
	c  *redis.ClusterClient
	ns string
}

// New returns the names under "names".
func New(c *redis.ClusterClient) *Names { return &Names{c: c, ns: "names"} }

// UseTag puts every name on one slot.
func (n *Names) UseTag() { n.ns = "{names}" }

// Pair reads two names.
func (n *Names) Pair(ctx context.Context) []any {
	return n.c.MGet(ctx, n.ns+":alice", n.ns+":bob").Val()
}

// Labels are labels.
type Labels struct {
	c  *redis.ClusterClient
	ns string
}

// NewLabels returns the labels under "labels".
func NewLabels(c *redis.ClusterClient) *Labels { return &Labels{c: c, ns: "labels"} }

// UseTag puts every label on one slot.
func (l *Labels) UseTag() { l.ns = "{labels}" }

// Pair reads two labels.
func (l *Labels) Pair(ctx context.Context) []any {
	return l.c.MGet(ctx, l.ns+":red", l.ns+":blue").Val() // reported: crossslot
}

// Quota keeps quotas under a prefix its constructor sets and SetPrefix
// replaces: the program calls SetPrefix for Quota and not for Usage.
type Quota struct {
	c      *redis.ClusterClient
	prefix string
}

// NewQuota returns quotas under "quota:".
func NewQuota(c *redis.ClusterClient) *Quota { return &Quota{c: c, prefix: "quota:"} }

// SetPrefix replaces the prefix.
func (q *Quota) SetPrefix(p string) { q.prefix = p }

// Of reads a customer's used and allowed calls.
func (q *Quota) Of(ctx context.Context, customer string) []any {
	return q.c.MGet(ctx, q.prefix+"used:"+customer, q.prefix+"limit:"+customer).Val()
}

// Usage keeps usage counters as Quota keeps quotas.
type Usage struct {
	c      *redis.ClusterClient
	prefix string
}

// NewUsage returns usage under "usage:".
func NewUsage(c *redis.ClusterClient) *Usage { return &Usage{c: c, prefix: "usage:"} }

// SetPrefix replaces the prefix.
func (u *Usage) SetPrefix(p string) { u.prefix = p }

// Of reads a customer's calls and errors.
func (u *Usage) Of(ctx context.Context, customer string) []any {
	return u.c.MGet(ctx, u.prefix+"calls:"+customer, u.prefix+"errors:"+customer).Val() // reported: crossslot
}
