package values

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

// A command a loop extends, one key per iteration, is a family over what
// the loop ranges over, reported where the loop gives the key.
func builderInLoop(ctx context.Context, c rueidis.Client, v valkey.Client, u string, last map[string]string, ids []string) {
	cmd := c.B().Mset().KeyValue()
	for course, lesson := range last {
		cmd = cmd.KeyValue("last:"+course, lesson) // want `MSET keys "last:<course>" for two different keys of last are on different hash slots`
	}
	c.Do(ctx, cmd.Build())

	tagged := c.B().Mset().KeyValue()
	for course, lesson := range last {
		tagged = tagged.KeyValue("last:{user}:"+course, lesson)
	}
	c.Do(ctx, tagged.Build())

	vcmd := v.B().Mset().KeyValue()
	for _, id := range ids {
		vcmd = vcmd.KeyValue("seen:"+id, "1") // want `MSET keys "seen:<ids\[i\]>" for two different elements of ids are on different hash slots`
	}
	v.Do(ctx, vcmd.Build())

	same := v.B().Mset().KeyValue()
	for range ids {
		same = same.KeyValue("seen:{"+u+"}", "1")
	}
	v.Do(ctx, same.Build())
}

// Key of a variadic Key(keys ...string), one per iteration: the same family.
func variadicKeyInLoop(ctx context.Context, c rueidis.Client, v valkey.Client, u string, users []string) {
	cmd := c.B().Mget().Key()
	for _, id := range users {
		cmd = cmd.Key("cart:" + id + ":meta") // want `MGET keys "cart:<users\[i\]>:meta" for two different elements of users are on different hash slots`
	}
	c.Do(ctx, cmd.Build())

	own := v.B().Mget().Key()
	for _, id := range users {
		own = own.Key("cart:{" + u + "}:" + id)
	}
	v.Do(ctx, own.Build())

	vcmd := v.B().Mget().Key()
	for _, id := range users {
		vcmd = vcmd.Key("seen:"+id, "seen:"+id+":at") // want `MGET keys "seen:<users\[i\]>" and "seen:<users\[i\]>:at" are on different hash slots`
	}
	v.Do(ctx, vcmd.Build())
}
