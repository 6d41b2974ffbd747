// Command worker wires the same service again: its findings are the same,
// reported once.
package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/cli/ports/redisstore"
	"example.com/cli/ports/service"
)

func main() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	_, _ = service.New(redisstore.New(rdb)).Totals(context.Background())
}
