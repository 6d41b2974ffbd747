// Package rueidisprob stands for rueidis's sub-modules that use the client
// (rueidisprob, rueidislock, rueidisaside, om): they are checked like any
// user's code, though they live under the client's path.
package rueidisprob

import (
	"context"

	"github.com/redis/rueidis"
)

type bloomFilter struct {
	client  rueidis.Client
	name    string
	counter string
	tagged  string
	tcount  string
}

func NewBloomFilter(client rueidis.Client, name string) *bloomFilter {
	return &bloomFilter{client: client, name: name, counter: name + ":c", tagged: "{" + name + "}", tcount: "{" + name + "}:c"}
}

func (c *bloomFilter) Reset(ctx context.Context) {
	c.client.Do(ctx, c.client.B().Rename().Key(c.name).Newkey(c.counter).Build()) // want `RENAME keys "<c.name>" and "<c.name>:c" are on different hash slots for all but about 1 in 16384 values of c.name, unless c.name holds a hash tag`
	c.client.Do(ctx, c.client.B().Rename().Key(c.tagged).Newkey(c.tcount).Build())
}
