// Package inventory writes a key builder's calls with constant arguments,
// in place and through variables: each is a use of the builder's family,
// as the key inventory records it. A comment `family:` before a line that
// sends keys says their families: the builder's template or, where no
// builder's call is known to make the key, the key's own.
package inventory

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func rateKey(id int) string { return fmt.Sprintf("rate:{%d}", id) }

func acctKey(id string) string { return "acct:" + id }

var daily = rateKey(2)

var Weekly = rateKey(7)

var moved = rateKey(8)

func init() { moved = rateKey(9) }

func constants(ctx context.Context, rdb *redis.ClusterClient, cond bool) {
	// family: rate:{<id>}
	rdb.Incr(ctx, rateKey(1))
	k := rateKey(3)
	// family: rate:{<id>}
	rdb.Incr(ctx, k)
	alias := k
	// family: rate:{<id>}
	rdb.Incr(ctx, alias)
	// family: rate:{<id>}
	rdb.Incr(ctx, daily)
	a := acctKey("7")
	// family: acct:<id>
	rdb.Get(ctx, (a))
	ks := []string{acctKey("1"), acctKey("2")}
	// family: acct:<id> acct:<id>
	rdb.MGet(ctx, ks...) // want `MGet keys "acct:1" \(slot 10076\) and "acct:2" \(slot 5951\) are on different hash slots`

	// Near-misses: a variable given two values, one of them not the
	// builder's; a package variable the package assigns again, or one
	// another package may assign (exported); a slice of a builder's key
	// and a literal; a variable whose address is taken; a literal of the
	// builder's shape.
	m := rateKey(6)
	if cond {
		m = "rate:{6}"
	}
	// family: rate:{6} rate:{6}
	rdb.Incr(ctx, m)
	// family: <moved>
	rdb.Incr(ctx, moved)
	// family: <Weekly>
	rdb.Incr(ctx, Weekly)
	mixed := []string{rateKey(5), "{5}:x"}
	// family: rate:{5} {5}:x
	rdb.MGet(ctx, mixed...)
	p := rateKey(4)
	keep(&p)
	// family: <p>
	rdb.Incr(ctx, p)
	// family: rate:{1}
	rdb.Incr(ctx, "rate:{1}")
}

func keep(*string) {}
