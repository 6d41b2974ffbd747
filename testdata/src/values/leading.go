package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A Ledger builds a member's keys under a deployment prefix, which may
// hold a tag of its own.
type Ledger struct {
	Prefix string
}

func (l Ledger) Lifetime(m string) string { return l.Prefix + ":{" + m + "}:lifetime" } // want Lifetime:`key of\(p1, l.Prefix\)\+":\{"\+p2\+"\}:lifetime"`

// A value at the start of one key only: if it holds a tag, that key is on
// the tag's slot for every member and the other moves with the member; if
// not, the member's tag and the other key's whole text differ. Beside a
// key of the member's tag, only the prefix's tag could part them; beside a
// constant, the prefix alone decides. Both keys under the prefix are apart
// unless the prefix holds a tag, as before.
func oneLeadingValue(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, l Ledger, m string) {
	rdb.MGet(ctx, l.Lifetime(m), "tier:"+m) // want `MGet keys "<l.Prefix>:\{<m>\}:lifetime" and "tier:<m>" are on different hash slots for all but about 1 in 16384 values of m \(assuming m holds no brace\)`
	rdb.MGet(ctx, l.Lifetime(m), "tier:{"+m+"}")
	rdb.MGet(ctx, l.Lifetime(m), "tier:all")
	rdb.MGet(ctx, l.Lifetime(m), l.Prefix+":"+m)                  // want `unless l.Prefix holds a hash tag`
	c.Do(ctx, c.B().Mget().Key(l.Lifetime(m), "tier:"+m).Build()) // want `MGET keys "<l.Prefix>:\{<m>\}:lifetime" and "tier:<m>" are on different hash slots for all but about 1 in 16384 values of m`
	c.Do(ctx, c.B().Mget().Key(l.Lifetime(m), "tier:{"+m+"}").Build())
}
