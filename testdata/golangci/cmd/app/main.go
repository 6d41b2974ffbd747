// Command app wires shop's port to its Redis adapter.
package main

import (
	"github.com/redis/go-redis/v9"

	"example.com/golangci"
	"example.com/golangci/adapter"
)

var mover shop.Mover = adapter.New(redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"a:7000"}}))

func main() { _ = mover }
