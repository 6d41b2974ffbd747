// Command queued sets its exported fields itself: package main is imported
// by nothing, so its fields hold what it writes.
package main

import (
	"context"
	"os"

	"github.com/redis/go-redis/v9"
)

type Queue struct {
	RDB     *redis.ClusterClient
	Pending string
	Ready   string
	Done    string
	Failed  string
}

func main() { run(os.Args[1]) }

func run(name string) {
	q := &Queue{RDB: redis.NewClusterClient(&redis.ClusterOptions{})}
	q.Pending = "q:" + name + ":pending"
	q.Ready = "q:" + name + ":ready"
	q.Done = "q:{" + name + "}:done"
	q.Failed = "q:{" + name + "}:failed"
	q.promote(context.Background())
}

func (q *Queue) promote(ctx context.Context) {
	q.RDB.Rename(ctx, q.Pending, q.Ready) // want `Rename keys "q:<name>:pending" and "q:<name>:ready" are on different hash slots for all but about 1 in 16384 values of name`
	q.RDB.Rename(ctx, q.Done, q.Failed)
}
