// Package keys keeps key names in struct fields, built by constructors,
// for callers in another package.
package keys

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Queue's key names are built once, in NewQueue, from the queue's name.
type Queue struct {
	rdb        redis.UniversalClient
	name       string
	pendingKey string
	readyKey   string
}

func NewQueue(rdb redis.UniversalClient, name string) *Queue {
	return &Queue{rdb: rdb, name: name, pendingKey: "dq:" + name + ":pending", readyKey: "dq:" + name + ":ready"}
}

// Promote combines two of the names in one command.
func (q *Queue) Promote(ctx context.Context) error {
	return q.rdb.Rename(ctx, q.pendingKey, q.readyKey).Err() // want `Rename keys "dq:<q.name>:pending" and "dq:<q.name>:ready" are on different hash slots for all but about 1 in 16384 values of q.name \(assuming q.name holds no brace\)`
}

// PendingKey and ReadyKey give the names to callers.
func (q *Queue) PendingKey() string { return q.pendingKey } // want PendingKey:`key "dq:"\+of\(p1, q.name\)\+":pending"`

func (q *Queue) ReadyKey() string { return q.readyKey } // want ReadyKey:`key "dq:"\+of\(p1, q.name\)\+":ready"`

// Tagged's names share the queue's tag.
type Tagged struct {
	rdb        redis.UniversalClient
	pendingKey string
	readyKey   string
}

func NewTagged(rdb redis.UniversalClient, name string) *Tagged {
	return &Tagged{rdb: rdb, pendingKey: "dq:{" + name + "}:pending", readyKey: "dq:{" + name + "}:ready"}
}

func (q *Tagged) Promote(ctx context.Context) error {
	return q.rdb.Rename(ctx, q.pendingKey, q.readyKey).Err()
}

func (q *Tagged) PendingKey() string { return q.pendingKey } // want PendingKey:`key "dq:\{"\+of\(p1, name\)\+"\}:pending"`

func (q *Tagged) ReadyKey() string { return q.readyKey } // want ReadyKey:`key "dq:\{"\+of\(p1, name\)\+"\}:ready"`
