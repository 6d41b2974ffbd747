package values

import (
	"context"
	"fmt"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"values/keys"
)

// The package reaches redisc: its redigo connections may be a cluster's.
var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

// Key names built in a constructor and kept in fields: each field holds
// the template it was given, over the values of its object.
type jobs struct {
	rdb      *goredis.ClusterClient
	rc       rueidis.Client
	conn     redis.Conn
	queued   string
	running  string
	doneTag  string
	failTag  string
	lockName string
}

func newJobs(rdb *goredis.ClusterClient, rc rueidis.Client, conn redis.Conn, tenant string, shard int) *jobs {
	return &jobs{
		rdb: rdb, rc: rc, conn: conn,
		queued:   "jobs:" + tenant + ":queued",
		running:  fmt.Sprintf("jobs:%s:running", tenant),
		doneTag:  "jobs:{" + tenant + "}:done",
		failTag:  "jobs:{" + tenant + "}:failed",
		lockName: fmt.Sprintf("lock:%d", shard),
	}
}

var moveScript = goredis.NewScript(`return redis.call('RPOPLPUSH', KEYS[1], KEYS[2])`)

func (j *jobs) start(ctx context.Context) {
	j.rdb.Rename(ctx, j.queued, j.running)                                  // want `Rename keys "jobs:<tenant>:queued" and "jobs:<tenant>:running" are on different hash slots for all but about 1 in 16384 values of tenant \(assuming tenant holds no brace\)`
	moveScript.Run(ctx, j.rdb, []string{j.queued, j.running})               // want `Run keys "jobs:<tenant>:queued" and "jobs:<tenant>:running"`
	j.rdb.Rename(ctx, j.doneTag, j.failTag)                                 // one tag
	j.rdb.Rename(ctx, j.queued, j.lockName)                                 // want `Rename keys "jobs:<tenant>:queued" and "lock:<shard>" are on different hash slots for all but about 1 in 16384 pairs of values of tenant and shard \(assuming tenant holds no brace\)`
	j.rc.Do(ctx, j.rc.B().Rename().Key(j.queued).Newkey(j.running).Build()) // want `RENAME keys "jobs:<tenant>:queued" and "jobs:<tenant>:running"`
	j.conn.Do("RENAME", j.queued, j.running)                                // want `RENAME keys "jobs:<tenant>:queued" and "jobs:<tenant>:running"`
	j.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Incr(ctx, j.queued)
		p.Incr(ctx, j.running) // want `TxPipelined keys "jobs:<tenant>:queued" \(Incr\) and "jobs:<tenant>:running" \(Incr\)`
		return nil
	})
	j.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Incr(ctx, j.doneTag)
		p.Incr(ctx, j.failTag)
		return nil
	})
}

// Two objects' names are two values.
func twoJobs(ctx context.Context, a, b *jobs) {
	a.rdb.Rename(ctx, a.queued, b.queued)
	a.rdb.Rename(ctx, a.doneTag, b.failTag)
}

// Names through another package's methods: the caller's object's.
func fromAnotherPackage(ctx context.Context, rdb *goredis.ClusterClient, q *keys.Queue, t *keys.Tagged, other *keys.Queue) {
	rdb.Rename(ctx, q.PendingKey(), q.ReadyKey()) // want `Rename keys "dq:<q.name>:pending" and "dq:<q.name>:ready" are on different hash slots`
	rdb.Rename(ctx, t.PendingKey(), t.ReadyKey())
	rdb.Rename(ctx, q.PendingKey(), other.ReadyKey()) // want `Rename keys "dq:<q.name>:pending" and "dq:<other.name>:ready" are on different hash slots for all but about 1 in 16384 pairs of values of q.name and other.name`
	q.Promote(ctx)
}

// A field stored and read back in one function: the value just stored.
type adapter struct {
	rdb      *goredis.ClusterClient
	prefix   string
	uid      string
	channel  string
	response string
}

func (a *adapter) construct(ctx context.Context, nsp string) {
	a.channel = a.prefix + "#" + nsp + "#"
	a.response = a.prefix + "#" + nsp + "#" + a.uid + "#"
	a.rdb.SSubscribe(ctx, a.channel, a.response) // want `SSubscribe channels "<a.prefix>#<nsp>#" and "<a.prefix>#<nsp>#<a.uid>#" are on different hash slots for all but about 1 in 16384 pairs of values of a.uid \(assuming nsp and a.uid hold no brace\), unless a.prefix holds a hash tag`
	a.channel = "{" + a.prefix + "}#" + nsp
	a.response = "{" + a.prefix + "}#" + a.uid
	a.rdb.SSubscribe(ctx, a.channel, a.response)
}

func useAdapter(ctx context.Context, a *adapter) {
	a.construct(ctx, "/") // reported in construct, once, whatever its callers pass
}

// A key type made by a function: its fields are the call's arguments,
// shown as the caller writes them; made twice from one value, it is one
// value; made from a loop's element, it is that element.
type holdKeys struct{ m string }

func hk(m string) holdKeys { return holdKeys{m} }

func (h holdKeys) devices() string { return fmt.Sprintf("fraud:member:{%s}:devices", h.m) }
func (h holdKeys) previous() string {
	return fmt.Sprintf("fraud:member:{%s}:devices:prev", h.m)
}

func sharedDevices(ctx context.Context, rdb *goredis.ClusterClient, a, b string) {
	rdb.MGet(ctx, hk(a).devices(), hk(b).devices()) // want `MGet keys "fraud:member:\{<a>\}:devices" and "fraud:member:\{<b>\}:devices" are on different hash slots for all but about 1 in 16384 pairs of different values`
	rdb.MGet(ctx, hk(a).devices(), hk(a).previous())
	h := hk(a)
	rdb.MGet(ctx, h.devices(), h.previous())
	rdb.Rename(ctx, hk(a).legacy(), hk(a).devices()) // want `Rename keys "fraud:legacy:<a>" and "fraud:member:\{<a>\}:devices" are on different hash slots for all but about 1 in 16384 values of a \(assuming a holds no brace\); make a the hash tag of "fraud:legacy:<a>" too, as in "fraud:legacy:\{<a>\}"`
	rdb.Rename(ctx, hk(a).devices(), hk(a).previous())
}

func (h holdKeys) legacy() string { return "fraud:legacy:" + h.m }

func devicesOfMembers(ctx context.Context, rdb *goredis.ClusterClient, rc rueidis.Client, ms ...string) {
	ks := make([]string, len(ms))
	for i, m := range ms {
		ks[i] = hk(m).devices()
	}
	rdb.MGet(ctx, ks...)                         // want `MGet keys "fraud:member:\{<ms\[i\]>\}:devices" for two different elements of ms are on different hash slots`
	rc.Do(ctx, rc.B().Mget().Key(ks...).Build()) // want `MGET keys "fraud:member:\{<ms\[i\]>\}:devices" for two different elements of ms are on different hash slots`
	one := make([]string, 0, 2)
	for _, m := range ms[:1] {
		one = append(one, hk(m).devices(), hk(m).previous())
	}
	rdb.MGet(ctx, one...)
}

// A key type two functions make: the field has no one template, and a
// call's object is read through the function that made it.
type memberKeys struct{ m string }

func byMember(m string) memberKeys { return memberKeys{m} }
func anonymous() memberKeys        { return memberKeys{"anon"} }

func (k memberKeys) points() string { return "points:{" + k.m + "}" }

func pointsOfMembers(ctx context.Context, rdb *goredis.ClusterClient, ms ...string) {
	ks := make([]string, len(ms))
	for i, m := range ms {
		ks[i] = byMember(m).points()
	}
	rdb.MGet(ctx, ks...) // want `MGet keys "points:\{<ms\[i\]>\}" for two different elements of ms are on different hash slots`
	rdb.MGet(ctx, anonymous().points(), byMember("anon").points())
}
