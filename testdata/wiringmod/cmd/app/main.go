// Command app gives the cache a standalone server's client.
package main

import (
	"context"
	"os"

	"github.com/redis/go-redis/v9"

	"example.com/wiringmod/cache"
)

func main() {
	c := cache.New(redis.NewClient(&redis.Options{Addr: os.Getenv("CACHE_ADDR")}))
	_ = c.Pair(context.Background(), "a", "b")
}
