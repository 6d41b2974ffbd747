// Package queue queues commands on a pipeline its callers pass: helpers
// whose commands join the callers' transactions, through facts.
package queue

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Visit counts a visit of user.
func Visit(ctx context.Context, p redis.Pipeliner, user int) { // want Visit:`queues p2.Incr\("user:"\+%d\(p3\)\+":visits"\)`
	p.Incr(ctx, fmt.Sprintf("user:%d:visits", user))
}

// Both touches a user's two keys, which share the user's tag.
func Both(ctx context.Context, p redis.Cmdable, user int) { // want Both:`queues p2.Incr\("user:\{"\+%d\(p3\)\+"\}:a"\); queues p2.Incr\("user:\{"\+%d\(p3\)\+"\}:b"\)`
	p.Incr(ctx, fmt.Sprintf("user:{%d}:a", user))
	p.Incr(ctx, fmt.Sprintf("user:{%d}:b", user))
}
