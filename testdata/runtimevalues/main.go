// Command runtimevalues runs keys made of values drawn at run time on a
// three-master cluster. Functions named bad* are ones crossslot reports as
// near-sure or, assuming their ids hold no brace, sure: the cluster refuses
// them. good* ones it leaves alone, and they succeed. An id is drawn again
// in the rare case (about 1 in 16384) where the server puts the two keys of
// a bad* call on one slot: the claim is for all but those values.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

type env struct {
	rdb *redis.ClusterClient
}

// drawApart draws an id for which the server puts the two keys build makes
// on different slots.
func (e env) drawApart(ctx context.Context, build func(id string) (string, string)) string {
	for {
		id := strconv.FormatUint(rand.Uint64(), 36)
		a, b := build(id)
		sa, _ := e.rdb.ClusterKeySlot(ctx, a).Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, b).Result()
		if sa != sb {
			return id
		}
	}
}

func badStringID(ctx context.Context, e env) error {
	acct := e.drawApart(ctx, func(id string) (string, string) { return "bal:" + id + ":cur", "bal:" + id + ":prev" })
	return e.rdb.MGet(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev").Err()
}

func goodTaggedID(ctx context.Context, e env) error {
	acct := strconv.FormatUint(rand.Uint64(), 36)
	return e.rdb.MGet(ctx, "bal:{"+acct+"}:cur", "bal:{"+acct+"}:prev").Err()
}

// dayKey is a leaderboard's key for one day.
func dayKey(board string, day int) string {
	return fmt.Sprintf("lb:%s:%d", board, day)
}

func badBuilderDays(ctx context.Context, e env) error {
	board := e.drawApart(ctx, func(id string) (string, string) { return dayKey(id, 6), dayKey(id, 7) })
	return e.rdb.SInterCard(ctx, 0, dayKey(board, 6), dayKey(board, 7)).Err()
}

func badKnownBesideInt(ctx context.Context, e env) error {
	var n int
	for {
		n = rand.IntN(1 << 30)
		sa, _ := e.rdb.ClusterKeySlot(ctx, "report:latest").Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, "report:"+strconv.Itoa(n)).Result()
		if sa != sb {
			break
		}
	}
	e.rdb.Set(ctx, "report:latest", "x", 0)
	return e.rdb.Rename(ctx, "report:latest", "report:"+strconv.Itoa(n)).Err()
}

func goodKnownBesideTaggedInt(ctx context.Context, e env) error {
	n := rand.IntN(1 << 30)
	e.rdb.Set(ctx, "{report}:latest", "x", 0)
	return e.rdb.Rename(ctx, "{report}:latest", "{report}:"+strconv.Itoa(n)).Err()
}

func badKnownBesideString(ctx context.Context, e env) error {
	name := e.drawApart(ctx, func(id string) (string, string) { return "pool:" + id, "pool:idle" })
	return e.rdb.SMove(ctx, "pool:"+name, "pool:idle", "m").Err()
}

// queue's name is set from its constructor's parameter.
type queue struct {
	rdb  *redis.ClusterClient
	name string
}

func newQueue(rdb *redis.ClusterClient, name string) *queue { return &queue{rdb: rdb, name: name} }

func (q *queue) ack(ctx context.Context) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "q:"+q.name+":acks")
		p.Incr(ctx, "q:"+q.name+":done")
		return nil
	})
	return err
}

func (q *queue) ackTagged(ctx context.Context) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "q:{"+q.name+"}:acks")
		p.Incr(ctx, "q:{"+q.name+"}:done")
		return nil
	})
	return err
}

func badFieldTwice(ctx context.Context, e env) error {
	return newQueue(e.rdb, strconv.FormatUint(rand.Uint64(), 36)).ack(ctx)
}

func goodFieldTagged(ctx context.Context, e env) error {
	return newQueue(e.rdb, strconv.FormatUint(rand.Uint64(), 36)).ackTagged(ctx)
}

func slotKey(t int64) string { return "slot:" + strconv.FormatInt(t, 10) }

func badValuesDiffer(ctx context.Context, e env) error {
	var t int64
	for {
		t = rand.Int64N(1 << 40)
		sa, _ := e.rdb.ClusterKeySlot(ctx, slotKey(t)).Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, slotKey(t-1)).Result()
		if sa != sb {
			break
		}
	}
	return e.rdb.MGet(ctx, slotKey(t), slotKey(t-1)).Err()
}

func goodSameValue(ctx context.Context, e env) error {
	t := rand.Int64N(1 << 40)
	return e.rdb.MGet(ctx, slotKey(t), slotKey(t)).Err()
}

func hourKey(day string, h int) string { return "hour:" + day + ":" + strconv.Itoa(h) }

func badCountedLoop(ctx context.Context, e env) error {
	day := strconv.FormatUint(rand.Uint64(), 36)
	var ks []string
	for h := 0; h < 3; h++ {
		ks = append(ks, hourKey(day, h))
	}
	return e.rdb.Del(ctx, ks...).Err()
}

func goodCountedLoopTagged(ctx context.Context, e env) error {
	day := strconv.FormatUint(rand.Uint64(), 36)
	var ks []string
	for h := 0; h < 3; h++ {
		ks = append(ks, "hour:{"+day+"}:"+strconv.Itoa(h))
	}
	return e.rdb.Del(ctx, ks...).Err()
}

// tagUnion unions one set per tag it is given.
func tagUnion(ctx context.Context, rdb *redis.ClusterClient, tags []string) error {
	var ks []string
	for _, t := range tags {
		ks = append(ks, "tag:"+t)
	}
	return rdb.SUnion(ctx, ks...).Err()
}

func badLoopOverInput(ctx context.Context, e env) error {
	first := strconv.FormatUint(rand.Uint64(), 36)
	second := e.drawApart(ctx, func(id string) (string, string) { return "tag:" + first, "tag:" + id })
	return tagUnion(ctx, e.rdb, []string{first, second})
}

// userFields reads fields of one user: the element sits outside the tag.
func userFields(ctx context.Context, rdb *redis.ClusterClient, user string, fields []string) error {
	var ks []string
	for _, f := range fields {
		ks = append(ks, "user:{"+user+"}:"+f)
	}
	return rdb.MGet(ctx, ks...).Err()
}

func goodLoopInsideTag(ctx context.Context, e env) error {
	return userFields(ctx, e.rdb, strconv.FormatUint(rand.Uint64(), 36), []string{"name", "mail", "plan"})
}

func balanceKey(acct, period string) string {
	var b strings.Builder
	b.WriteString("bal:")
	b.WriteString(acct)
	b.WriteByte(':')
	b.WriteString(period)
	return b.String()
}

func badBuilderKeys(ctx context.Context, e env) error {
	acct := e.drawApart(ctx, func(id string) (string, string) { return balanceKey(id, "cur"), balanceKey(id, "prev") })
	return e.rdb.MGet(ctx, balanceKey(acct, "cur"), balanceKey(acct, "prev")).Err()
}

func goodBuilderTagged(ctx context.Context, e env) error {
	acct := "{" + strconv.FormatUint(rand.Uint64(), 36) + "}"
	return e.rdb.MGet(ctx, balanceKey(acct, "cur"), balanceKey(acct, "prev")).Err()
}

func delOrders(ctx context.Context, rdb *redis.ClusterClient, order int, withAudit bool) error {
	keys := []string{"order:{" + strconv.Itoa(order) + "}:lines", "order:{" + strconv.Itoa(order) + "}:total"}
	if withAudit {
		keys = append(keys, "audit:orders")
	}
	return rdb.Del(ctx, keys...).Err()
}

func badConditionalAppend(ctx context.Context, e env) error {
	for {
		order := rand.IntN(1 << 30)
		sa, _ := e.rdb.ClusterKeySlot(ctx, "order:{"+strconv.Itoa(order)+"}:lines").Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, "audit:orders").Result()
		if sa != sb {
			return delOrders(ctx, e.rdb, order, true)
		}
	}
}

func delTagged(ctx context.Context, rdb *redis.ClusterClient, order string, withAudit bool) error {
	keys := []string{"order:{" + order + "}:lines"}
	if withAudit {
		keys = append(keys, "order:{"+order+"}:audit")
	}
	return rdb.Del(ctx, keys...).Err()
}

func goodConditionalTagged(ctx context.Context, e env) error {
	return delTagged(ctx, e.rdb, strconv.FormatUint(rand.Uint64(), 36), true)
}

// countVisits counts a visit of each page in one transaction.
func countVisits(ctx context.Context, rdb *redis.ClusterClient, pages []string) error {
	pipe := rdb.TxPipeline()
	for _, p := range pages {
		pipe.Incr(ctx, "visits:"+p)
	}
	_, err := pipe.Exec(ctx)
	return err
}

func badLoopTransaction(ctx context.Context, e env) error {
	first := strconv.FormatUint(rand.Uint64(), 36)
	second := e.drawApart(ctx, func(id string) (string, string) { return "visits:" + first, "visits:" + id })
	return countVisits(ctx, e.rdb, []string{first, second})
}

// countUserVisits keeps one user's pages under the user's tag.
func countUserVisits(ctx context.Context, rdb *redis.ClusterClient, user string, pages []string) error {
	pipe := rdb.TxPipeline()
	for _, p := range pages {
		pipe.Incr(ctx, "visits:{"+user+"}:"+p)
	}
	_, err := pipe.Exec(ctx)
	return err
}

func goodLoopTransactionTagged(ctx context.Context, e env) error {
	return countUserVisits(ctx, e.rdb, strconv.FormatUint(rand.Uint64(), 36), []string{"home", "cart", "pay"})
}

// store is the service's own client interface; its one implementation
// wraps go-redis, so a call through it runs redisStore's MGet.
type store interface {
	pair(ctx context.Context, a, b string) error
}

type redisStore struct{ rdb redis.UniversalClient }

func (s redisStore) pair(ctx context.Context, a, b string) error { return s.rdb.MGet(ctx, a, b).Err() }

type accounts struct{ st store }

func (a accounts) move(ctx context.Context, acct string) error {
	return a.st.pair(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev")
}

func (a accounts) moveTagged(ctx context.Context, acct string) error {
	return a.st.pair(ctx, "bal:{"+acct+"}:cur", "bal:{"+acct+"}:prev")
}

func badInterfaceCall(ctx context.Context, e env) error {
	acct := e.drawApart(ctx, func(id string) (string, string) { return "bal:" + id + ":cur", "bal:" + id + ":prev" })
	return accounts{st: redisStore{rdb: e.rdb}}.move(ctx, acct)
}

func goodInterfaceTagged(ctx context.Context, e env) error {
	return accounts{st: redisStore{rdb: e.rdb}}.moveTagged(ctx, strconv.FormatUint(rand.Uint64(), 36))
}

// mgetLog leaves dedup "" when token is empty: "" is on slot 0.
func mgetLog(ctx context.Context, rdb *redis.ClusterClient, ch, token string) error {
	var dedup string
	if token != "" {
		dedup = "dedup:{" + ch + "}:" + token
	}
	return rdb.MGet(ctx, "log:{"+ch+"}", dedup).Err()
}

func badZeroOnPath(ctx context.Context, e env) error {
	ch := e.drawApart(ctx, func(id string) (string, string) { return "log:{" + id + "}", "" })
	return mgetLog(ctx, e.rdb, ch, "")
}

// mgetLogGuarded tests dedup before the MGet.
func mgetLogGuarded(ctx context.Context, rdb *redis.ClusterClient, ch, token string) error {
	var dedup string
	if token != "" {
		dedup = "dedup:{" + ch + "}:" + token
	}
	if dedup == "" {
		return rdb.Get(ctx, "log:{"+ch+"}").Err()
	}
	return rdb.MGet(ctx, "log:{"+ch+"}", dedup).Err()
}

func goodZeroGuarded(ctx context.Context, e env) error {
	ch := strconv.FormatUint(rand.Uint64(), 36)
	if err := mgetLogGuarded(ctx, e.rdb, ch, ""); err != nil {
		return err
	}
	return mgetLogGuarded(ctx, e.rdb, ch, "t1")
}

// Key names built in a constructor and kept in fields.
type jobQueue struct {
	pending, ready string
}

func newJobQueue(name string) *jobQueue {
	return &jobQueue{pending: "dq:" + name + ":pending", ready: "dq:" + name + ":ready"}
}

func badFieldTemplate(ctx context.Context, e env) error {
	name := e.drawApart(ctx, func(id string) (string, string) { return "dq:" + id + ":pending", "dq:" + id + ":ready" })
	q := newJobQueue(name)
	return e.rdb.MGet(ctx, q.pending, q.ready).Err()
}

type taggedJobs struct{ pending, ready string }

func newTaggedJobs(name string) *taggedJobs {
	return &taggedJobs{pending: "dq:{" + name + "}:pending", ready: "dq:{" + name + "}:ready"}
}

func goodFieldTemplateTagged(ctx context.Context, e env) error {
	q := newTaggedJobs(strconv.FormatUint(rand.Uint64(), 36))
	return e.rdb.MGet(ctx, q.pending, q.ready).Err()
}

// Keys of two different values.
func badTwoIDs(ctx context.Context, e env) error {
	user := strconv.FormatUint(rand.Uint64(), 36)
	order := e.drawApart(ctx, func(id string) (string, string) { return "cart:" + user + ":items", "order:" + id + ":items" })
	e.rdb.RPush(ctx, "cart:"+user+":items", "sku")
	return e.rdb.Rename(ctx, "cart:"+user+":items", "order:"+order+":items").Err()
}

func goodTwoIDsOneTag(ctx context.Context, e env) error {
	user := strconv.FormatUint(rand.Uint64(), 36)
	order := strconv.FormatUint(rand.Uint64(), 36)
	e.rdb.RPush(ctx, "cart:{"+user+"}:items", "sku")
	return e.rdb.Rename(ctx, "cart:{"+user+"}:items", "order:{"+user+"}:"+order).Err()
}

// One value at the start of two keys.
func badLeadingValue(ctx context.Context, e env) error {
	name := e.drawApart(ctx, func(id string) (string, string) { return id, id + ":c" })
	return e.rdb.MGet(ctx, name, name+":c").Err()
}

func goodLeadingValueTagged(ctx context.Context, e env) error {
	name := "{" + strconv.FormatUint(rand.Uint64(), 36) + "}"
	return e.rdb.MGet(ctx, name, name+":c").Err()
}

// A batch made with make and filled by index in a loop over an input.
func badIndexedBatch(ctx context.Context, e env) error {
	a := strconv.FormatUint(rand.Uint64(), 36)
	b := e.drawApart(ctx, func(id string) (string, string) { return "stock:" + a, "stock:" + id })
	skus := []string{a, b}
	return mgetStock(ctx, e.rdb, skus[:len(skus):len(skus)])
}

func mgetStock(ctx context.Context, rdb *redis.ClusterClient, skus []string) error {
	ks := make([]string, len(skus))
	for i, s := range skus {
		ks[i] = "stock:" + s
	}
	return rdb.MGet(ctx, ks...).Err()
}

func mgetStockTagged(ctx context.Context, rdb *redis.ClusterClient, shop string, skus []string) error {
	ks := make([]string, 0, len(skus))
	for _, s := range skus {
		ks = append(ks, "stock:{"+shop+"}:"+s)
	}
	return rdb.MGet(ctx, ks...).Err()
}

func goodIndexedBatchTagged(ctx context.Context, e env) error {
	return mgetStockTagged(ctx, e.rdb, "shop1", []string{strconv.FormatUint(rand.Uint64(), 36), strconv.FormatUint(rand.Uint64(), 36)})
}

// A struct formatted with %v prints braces: its fields are the tag.
type entity struct{ ID uint64 }

func goodStructTag(ctx context.Context, e env) error {
	id := entity{ID: rand.Uint64()}
	return e.rdb.MGet(ctx, fmt.Sprintf("e:%v:a", id), fmt.Sprintf("e:%v:b", id)).Err()
}

var scenarios = []struct {
	name string
	run  func(context.Context, env) error
}{
	{"badStringID", badStringID},
	{"goodTaggedID", goodTaggedID},
	{"badBuilderDays", badBuilderDays},
	{"badKnownBesideInt", badKnownBesideInt},
	{"goodKnownBesideTaggedInt", goodKnownBesideTaggedInt},
	{"badKnownBesideString", badKnownBesideString},
	{"badFieldTwice", badFieldTwice},
	{"goodFieldTagged", goodFieldTagged},
	{"badValuesDiffer", badValuesDiffer},
	{"goodSameValue", goodSameValue},
	{"badCountedLoop", badCountedLoop},
	{"goodCountedLoopTagged", goodCountedLoopTagged},
	{"badLoopOverInput", badLoopOverInput},
	{"goodLoopInsideTag", goodLoopInsideTag},
	{"badBuilderKeys", badBuilderKeys},
	{"goodBuilderTagged", goodBuilderTagged},
	{"badConditionalAppend", badConditionalAppend},
	{"goodConditionalTagged", goodConditionalTagged},
	{"badLoopTransaction", badLoopTransaction},
	{"goodLoopTransactionTagged", goodLoopTransactionTagged},
	{"badInterfaceCall", badInterfaceCall},
	{"goodInterfaceTagged", goodInterfaceTagged},
	{"badZeroOnPath", badZeroOnPath},
	{"goodZeroGuarded", goodZeroGuarded},
	{"badFieldTemplate", badFieldTemplate},
	{"goodFieldTemplateTagged", goodFieldTemplateTagged},
	{"badTwoIDs", badTwoIDs},
	{"goodTwoIDsOneTag", goodTwoIDsOneTag},
	{"badLeadingValue", badLeadingValue},
	{"goodLeadingValueTagged", goodLeadingValueTagged},
	{"badIndexedBatch", badIndexedBatch},
	{"goodIndexedBatchTagged", goodIndexedBatchTagged},
	{"goodStructTag", goodStructTag},
}

func main() {
	addr := flag.String("addr", "", "a node of a Redis Cluster, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: runtimevalues -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	e := env{rdb: redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})}
	defer e.rdb.Close()
	for _, s := range scenarios {
		if err := s.run(ctx, e); err != nil && !errors.Is(err, redis.Nil) {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
