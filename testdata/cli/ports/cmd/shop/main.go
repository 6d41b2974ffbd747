// Command shop wires the service to its Redis adapter.
package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/cli/ports/redisstore"
	"example.com/cli/ports/service"
)

func main() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	orders := service.New(redisstore.New(rdb))
	_ = orders.Checkout(context.Background(), 1, 2)
}
