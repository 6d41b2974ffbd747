package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

// An exported prefix another package may set is unknown; the value its
// own package gives it decides whether a finding may rest on it holding
// no brace. Set to a tag's opening brace, it is taken to hold one: the
// keys built around it are not reported, in a loop as anywhere.
var TaggedPrefix = "user:{"

func taggedPrefixed(id, f string) string { return TaggedPrefix + id + "}:" + f }

func taggedPrefixLoop(ctx context.Context, rdb *goredis.ClusterClient, id string) {
	var keys []string
	for _, f := range []string{"a", "b"} {
		keys = append(keys, taggedPrefixed(id, f))
	}
	rdb.MGet(ctx, keys...)
}

// Set to text without a brace, the keys cross unless code out of sight
// sets a tag, as the finding says.
var PlainPrefix = "user:"

func plainPrefixed(id, f string) string { return PlainPrefix + id + ":" + f }

func plainPrefixLoop(ctx context.Context, rdb *goredis.ClusterClient, id string) {
	var keys []string
	for _, f := range []string{"a", "b"} {
		keys = append(keys, plainPrefixed(id, f))
	}
	rdb.MGet(ctx, keys...) // want `MGet keys "<PlainPrefix><id>:a" and "<PlainPrefix><id>:b" are on different hash slots for every value of PlainPrefix and id \(assuming id holds no brace\), unless PlainPrefix holds a hash tag`
}
