//go:build verify

// Command verify runs the stores on a cluster; built only with its tag, it
// is no part of the program.
package main

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/wiringmod/unwired"
)

func main() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}})
	_ = unwired.New(rdb).Pair(context.Background(), "a", "b")
}
