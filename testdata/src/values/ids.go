package values

import (
	"context"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"

	"values/idtypes"
)

// Keys of two different values: on one slot for about 1 in 16384 pairs of
// them, or also whenever they are equal when the keys are otherwise the
// same text. Values written the same way are taken to be one value.

type order struct {
	UserID string
	ID     int64
}

type shop struct {
	rdb *goredis.ClusterClient
	rc  rueidis.Client
	ns  string
}

func newShop(rdb *goredis.ClusterClient, rc rueidis.Client, ns string) *shop {
	return &shop{rdb: rdb, rc: rc, ns: ns}
}

func (s *shop) checkout(ctx context.Context, o *order, from, to, sku string) {
	userID, orderID := o.UserID, o.ID
	s.rdb.Rename(ctx, "cart:"+userID+":items", "order:"+strconv.FormatInt(orderID, 10)+":items")                // want `Rename keys "cart:<o.UserID>:items" and "order:<strconv.FormatInt\(orderID, 10\)>:items" are on different hash slots for all but about 1 in 16384 pairs of values of o.UserID and strconv.FormatInt\(orderID, 10\) \(assuming o.UserID holds no brace\)`
	s.rdb.Rename(ctx, "cart:{"+userID+"}:items", "cart:{"+userID+"}:old")                                       // one tag
	s.move(ctx, "stock:"+from+":"+sku, "stock:"+to+":"+sku)                                                     // want `Rename keys "stock:<from>:<sku>" and "stock:<to>:<sku>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to \(assuming from and sku and to hold no brace\) in shop.move`
	s.rc.Do(ctx, s.rc.B().Rename().Key("cart:"+userID).Newkey("order:"+strconv.FormatInt(orderID, 10)).Build()) // want `RENAME keys "cart:<o.UserID>" and "order:<strconv.FormatInt\(orderID, 10\)>" are on different hash slots for all but about 1 in 16384 pairs of values`
}

// move renames a key: its callers decide whether the keys meet.
func (s *shop) move(ctx context.Context, src, dst string) {
	s.rdb.Rename(ctx, src, dst)
}

func transfer(ctx context.Context, s *shop, req map[string]string) {
	from, to := req["from"], req["to"]
	s.move(ctx, "stock:"+from+":sku", "stock:"+to+":sku")       // want `Rename keys "stock:<from>:sku" and "stock:<to>:sku" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to \(assuming from and to hold no brace\) in shop.move`
	s.move(ctx, "stock:{"+from+"}:sku", "stock:{"+from+"}:old") // one tag
	s.move(ctx, "stock:"+req["a"]+":sku", "stock:"+req["a"]+":sku")
}

type tokenInfo interface {
	GetCode() string
	GetAccess() string
}

func (s *shop) wrapperKey(key string) string { return fmt.Sprintf("%s%s", s.ns, key) }

// A prefix of the object's, then an id: the ids differ, and the prefix
// holds no tag unless a caller gives it one.
func (s *shop) tokens(ctx context.Context, info tokenInfo, test bool) {
	pipe := s.rdb.TxPipeline()
	pipe.Set(ctx, s.wrapperKey(info.GetCode()), 1, 0)
	pipe.Set(ctx, s.wrapperKey(info.GetAccess()), 1, 0) // want `TxPipeline keys "<s.ns><info.GetCode\(\)>" \(Set\) and "<s.ns><info.GetAccess\(\)>" \(Set\) are on different hash slots for all but about 1 in 16384 pairs of different values of info.GetCode\(\) and info.GetAccess\(\) \(assuming info.GetCode\(\) and info.GetAccess\(\) hold no brace\), unless s.ns holds a hash tag`
	pipe.Exec(ctx)

	other := s.rdb.TxPipeline()
	if test {
		other.Set(ctx, "t:"+info.GetCode(), 1, 0)
	} else {
		other.Set(ctx, "t:"+info.GetAccess(), 1, 0) // never with the other: not compared
	}
	other.Exec(ctx)
}

// One value at the start of two keys: a name given by a caller, which
// shares one slot only if it holds a hash tag of its own.
type bloom struct {
	rc      rueidis.Client
	name    string
	counter string
}

func newBloom(rc rueidis.Client, name string) *bloom {
	return &bloom{rc: rc, name: name, counter: name + ":c"}
}

var bloomAdd = rueidis.NewLuaScript(`redis.call('SETBIT', KEYS[1], ARGV[1], 1) return redis.call('INCR', KEYS[2])`)

func (b *bloom) add(ctx context.Context) {
	bloomAdd.Exec(ctx, b.rc, []string{b.name, b.counter}, []string{"1"}) // want `Lua.Exec keys "<b.name>" and "<b.name>:c" are on different hash slots for all but about 1 in 16384 values of b.name, unless b.name holds a hash tag; the cluster client.s builder panics`
}

type flight struct{ rdb *goredis.ClusterClient }

func (f *flight) lockKeys(ctx context.Context, req map[string]string, key string) {
	k := req["key"] + ":data"
	f.rdb.MGet(ctx, k+":lock", k+":empty") // want `MGet keys "<req.*>:data:lock" and "<req.*>:data:empty" are on different hash slots for all but about 1 in 16384 values of req\["key"\], unless req\["key"\] holds a hash tag`
	f.rdb.MGet(ctx, key, key+":lock")      // a parameter: its callers'
}

func useFlight(ctx context.Context, f *flight) {
	f.lockKeys(ctx, nil, "user:1") // want `MGet keys "user:1" \(slot \d+\) and "user:1:lock" \(slot \d+\) are on different hash slots in flight.lockKeys`
	f.lockKeys(ctx, nil, "{user:1}")
}

type cacheKey struct{ parts []string }

func (k *cacheKey) String() string { return fmt.Sprint(k.parts) }

// One value at the start of both keys, more values after it in one.
func (s *shop) put(ctx context.Context, key *cacheKey) {
	stringKey := key.String()
	random := fmt.Sprint(len(key.parts))
	tmp := stringKey + random + "_tmp"
	s.rdb.Rename(ctx, tmp, stringKey) // want `Rename keys "<stringKey><random>_tmp" and "<stringKey>" are on different hash slots for all but about 1 in 16384 pairs of values of random, unless stringKey holds a hash tag`
	s.rdb.Rename(ctx, "{"+stringKey+"}"+random+"_tmp", stringKey)
}

func cartKey(uid string) string { return "cart:{" + uid + "}:items" }

// Malformed tags around run-time values.
func quota(ctx context.Context, rdb *goredis.ClusterClient, req map[string]string) {
	tenant, uid := req["tenant"], req["uid"]
	rdb.Incr(ctx, fmt.Sprintf("quota:{%s:used", tenant)) // want `Incr key "quota:\{<tenant>:used" has a '\{' with no '\}' after it, so the whole key is hashed \(assuming tenant holds no brace\)`
	rdb.Incr(ctx, fmt.Sprintf("quota:{%s}:used", tenant))
	rdb.Get(ctx, "lock:{"+cartKey(uid)+"}") // want `Get key "lock:\{cart:\{<uid>\}:items\}" has a '\{' inside its hash tag: the server hashes "cart:\{<uid>", from the first '\{' to the first '\}' \(assuming uid holds no brace\)`
	rdb.Get(ctx, "lock:"+cartKey(uid))
}

// Keys of an id type of another package, written with its String method:
// two ids are two values.
func partyMembers(prefix string, id idtypes.PartyID) string {
	return prefix + ":party:{" + id.String() + "}:members"
}

func idTypeOfAnotherPackage(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, into, from idtypes.PartyID) {
	rdb.SUnionStore(ctx, partyMembers("arena", into), partyMembers("arena", into), partyMembers("arena", from)) // want `SUnionStore keys "arena:party:\{<into>\}:members" and "arena:party:\{<from>\}:members" are on different hash slots`
	rdb.SUnionStore(ctx, partyMembers("arena", into), partyMembers("arena", into)+":old")
	c.Do(ctx, c.B().Rename().Key(partyMembers("arena", into)).Newkey(partyMembers("arena", from)).Build()) // want `RENAME keys "arena:party:\{<into>\}:members" and "arena:party:\{<from>\}:members" are on different hash slots`
	c.Do(ctx, c.B().Rename().Key(partyMembers("arena", into)).Newkey(partyMembers("arena", into)+":old").Build())
}
