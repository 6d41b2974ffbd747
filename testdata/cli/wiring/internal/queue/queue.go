// Package queue takes an options struct whose HashTags main leaves unset:
// the finding that holds at its default is reported.
package queue

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Options configure a queue.
type Options struct {
	HashTags bool
}

// Queue is a work queue.
type Queue struct {
	c    *redis.ClusterClient
	opts Options
}

// New returns a queue.
func New(c *redis.ClusterClient, opts Options) *Queue { return &Queue{c: c, opts: opts} }

func (q *Queue) key(name, part string) string {
	if q.opts.HashTags {
		return "q:{" + name + "}:" + part
	}
	return "q:" + name + ":" + part
}

// Sizes reads a queue's two lists' sizes.
func (q *Queue) Sizes(ctx context.Context, name string) []any {
	return q.c.MGet(ctx, q.key(name, "pending"), q.key(name, "ready")).Val() // reported: crossslot
}
