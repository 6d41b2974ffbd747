// Package visits queues a user's visit on the pipeline it is given: a
// helper whose commands join its callers' transactions.
package visits

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Key is a user's visit counter.
func Key(user int) string { return fmt.Sprintf("visits:%d", user) }

// Count queues one visit.
func Count(ctx context.Context, p redis.Pipeliner, user int) {
	p.Incr(ctx, Key(user))
}
