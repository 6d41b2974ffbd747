package main

// Shape 2: two keys of different ids in one command, or one run-time value
// at the start of two keys.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// ---------------------------------------------------------------------------
// Source: github.com/go-gitea/gitea, modules/session/redis.go
// (RedisProvider.Regenerate); issue https://github.com/go-gitea/gitea/issues/23869,
// fix PR https://github.com/go-gitea/gitea/pull/23975 ("do not use Rename
// here, because the old sid and new sid may be in different redis cluster
// slot"). Shape 2. Bug: RENAME from the old session's key to the new one:
// two random session ids behind one prefix.

// RedisProvider represents a redis session provider implementation.
type RedisProvider struct {
	c        redis.UniversalClient
	duration time.Duration
	prefix   string
}

// Exist returns true if session with given ID exists.
func (p *RedisProvider) Exist(ctx context.Context, sid string) (bool, error) {
	v, err := p.c.Exists(ctx, p.prefix+sid).Result()
	return err == nil && v == 1, err
}

// Regenerate regenerates a session store from old session ID to new one.
func (p *RedisProvider) Regenerate(ctx context.Context, oldsid, sid string) (err error) {
	poldsid := p.prefix + oldsid
	psid := p.prefix + sid

	if exist, err := p.Exist(ctx, sid); err != nil {
		return err
	} else if exist {
		return fmt.Errorf("new sid '%s' already exists", sid)
	}
	if exist, err := p.Exist(ctx, oldsid); err == nil && !exist {
		// Make a fake old session.
		if err := p.c.Set(ctx, poldsid, "", p.duration).Err(); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}

	if err = p.c.Rename(ctx, poldsid, psid).Err(); err != nil {
		return err
	}
	return nil
}

// RegenerateFixed is Regenerate after the fix.
func (p *RedisProvider) RegenerateFixed(ctx context.Context, oldsid, sid string) (err error) {
	poldsid := p.prefix + oldsid
	psid := p.prefix + sid

	if exist, err := p.Exist(ctx, sid); err != nil {
		return err
	} else if exist {
		return fmt.Errorf("new sid '%s' already exists", sid)
	}
	if exist, err := p.Exist(ctx, oldsid); err == nil && !exist {
		// Make a fake old session.
		if err := p.c.Set(ctx, poldsid, "", p.duration).Err(); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}

	// do not use Rename here, because the old sid and new sid may be in different redis cluster slot.
	kvs, err := p.c.Get(ctx, poldsid).Result()
	if err != nil {
		return err
	}

	if err = p.c.Del(ctx, poldsid).Err(); err != nil {
		return err
	}

	return p.c.Set(ctx, psid, kvs, p.duration).Err()
}

func badGiteaRegenerate(ctx context.Context, e env) error {
	p := &RedisProvider{c: e.rdb, duration: time.Minute, prefix: "session:"}
	oldsid := newID()
	sid := e.drawApart(ctx, func(id string) (string, string) { return p.prefix + oldsid, p.prefix + id })
	return p.Regenerate(ctx, oldsid, sid)
}

func goodGiteaRegenerate(ctx context.Context, e env) error {
	p := &RedisProvider{c: e.rdb, duration: time.Minute, prefix: "session:"}
	return p.RegenerateFixed(ctx, newID(), newID())
}

// ---------------------------------------------------------------------------
// Source: github.com/ContentSquare/chproxy, cache/redis_cache.go
// (redisCache.Put); issue https://github.com/ContentSquare/chproxy/issues/319,
// fix PR https://github.com/ContentSquare/chproxy/pull/320. Shape 2. Bug: the
// result was streamed into stringKey+random+"_tmp" and then RENAMEd to
// stringKey: one value at the start of two keys. The fix puts the whole
// stringKey in a hash tag in the temporary key, which matches stringKey's own
// slot because a Key's String() is a hex digest with no brace.

// Key is the cache key of a query.
type Key struct {
	Query    []byte
	Database string
}

// String returns the key's string representation: a digest.
func (k *Key) String() string {
	h := sha256.New()
	h.Write([]byte(k.Database))
	h.Write(k.Query)
	return hex.EncodeToString(h.Sum(nil))
}

type redisCache struct {
	name   string
	client redis.UniversalClient
	expire time.Duration
}

const putTimeout = 2 * time.Second
const renameTimeout = 1 * time.Second

// Put streams reader into the cache under key. The original ignored
// RENAME's result; here it is returned so that the refusal shows.
func (r *redisCache) Put(reader io.Reader, key *Key) (time.Duration, error) {
	stringKey := key.String()
	// in order to make the streaming operation atomic, chproxy streams into a temporary key (only known by the current goroutine)
	// then it switches the full result to the "real" stringKey available for other goroutines
	random := strconv.Itoa(rand.Int())
	stringKeyTmp := stringKey + random + "_tmp"

	return r.stream(reader, stringKey, stringKeyTmp)
}

// PutFixed is Put after the fix.
func (r *redisCache) PutFixed(reader io.Reader, key *Key) (time.Duration, error) {
	stringKey := key.String()
	random := strconv.Itoa(rand.Int())
	// Redis RENAME is considered to be a multikey operation. In Cluster mode, both oldkey and renamedkey must be in the same hash slot,
	stringKeyTmp := "{" + stringKey + "}" + random + "_tmp"

	return r.stream(reader, stringKey, stringKeyTmp)
}

func (r *redisCache) stream(reader io.Reader, stringKey, stringKeyTmp string) (time.Duration, error) {
	ctxSet, cancelFuncSet := context.WithTimeout(context.Background(), putTimeout)
	defer cancelFuncSet()
	if err := r.client.Set(ctxSet, stringKeyTmp, "meta", r.expire).Err(); err != nil {
		return 0, err
	}
	buffer := make([]byte, 2*1024)
	for {
		n, err := reader.Read(buffer)
		if n == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if err := r.client.Append(ctxSet, stringKeyTmp, string(buffer[:n])).Err(); err != nil {
			return 0, err
		}
	}
	ctxRename, cancelFuncRename := context.WithTimeout(context.Background(), renameTimeout)
	defer cancelFuncRename()
	if err := r.client.Rename(ctxRename, stringKeyTmp, stringKey).Err(); err != nil {
		return 0, err
	}
	return r.expire, nil
}

func badChproxyPut(ctx context.Context, e env) error {
	r := &redisCache{name: "default", client: e.rdb, expire: time.Minute}
	// Put draws its random suffix itself: in the 1 in 16384 case where both
	// keys share a slot the RENAME succeeds, so a success is tried again.
	for range 3 {
		key := &Key{Query: []byte("SELECT " + newID()), Database: "default"}
		if _, err := r.Put(strings.NewReader("result rows"), key); err != nil {
			return err
		}
	}
	return nil
}

func goodChproxyPut(ctx context.Context, e env) error {
	r := &redisCache{name: "default", client: e.rdb, expire: time.Minute}
	key := &Key{Query: []byte("SELECT " + newID()), Database: "default"}
	_, err := r.PutFixed(strings.NewReader("result rows"), key)
	return err
}

// ---------------------------------------------------------------------------
// Source: github.com/zeromicro/go-zero, core/stores/cache/cachenode.go
// (cacheNode.Del / DelCtx) and the model code goctl generates
// (defaultUserModel.Delete passing both unique-index cache keys); issue
// https://github.com/zeromicro/go-zero/issues/820, fixed in cacheNode.DelCtx
// (`if len(keys) > 1 && c.rds.Type == redis.ClusterType` deletes key by key).
// Shapes 2 and 3. Bug: the cache keys of one row, built from two different
// ids (the primary key and the mobile number), went to one DEL.

const (
	// ClusterType means redis cluster.
	ClusterType = "cluster"
	// NodeType means redis node.
	NodeType = "node"
)

// Redis is go-zero's redis wrapper.
type Redis struct {
	Addr   string
	Type   string
	client redis.UniversalClient
}

// DelCtx deletes keys.
func (s *Redis) DelCtx(ctx context.Context, keys ...string) (int, error) {
	v, err := s.client.Del(ctx, keys...).Result()
	if err != nil {
		return 0, err
	}
	return int(v), nil
}

// Cache is go-zero's cache interface.
type Cache interface {
	DelCtx(ctx context.Context, keys ...string) error
}

type cacheNode struct {
	rds *Redis
}

// DelCtx deletes cached values with keys. The original logged the error
// and scheduled a retry (asyncRetryDelCache); here it is returned.
func (c cacheNode) DelCtx(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}

	if _, err := c.rds.DelCtx(ctx, keys...); err != nil {
		return fmt.Errorf("failed to clear cache with keys: %q, error: %v", strings.Join(keys, ","), err)
	}

	return nil
}

type cacheNodeFixed struct {
	rds *Redis
}

// DelCtx deletes cached values with keys, after the fix.
func (c cacheNodeFixed) DelCtx(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}

	if len(keys) > 1 && c.rds.Type == ClusterType {
		for _, key := range keys {
			if _, err := c.rds.DelCtx(ctx, key); err != nil {
				return fmt.Errorf("failed to clear cache with key: %q, error: %v", key, err)
			}
		}
	} else if _, err := c.rds.DelCtx(ctx, keys...); err != nil {
		return fmt.Errorf("failed to clear cache with keys: %q, error: %v", strings.Join(keys, ","), err)
	}

	return nil
}

// CachedConn is go-zero's sqlc.CachedConn, without the database.
type CachedConn struct {
	cache Cache
}

// ExecCtx runs exec and then deletes the cache keys.
func (cc CachedConn) ExecCtx(ctx context.Context, exec func(ctx context.Context) error, keys ...string) error {
	if err := exec(ctx); err != nil {
		return err
	}
	return cc.DelCacheCtx(ctx, keys...)
}

// DelCacheCtx deletes cache with keys.
func (cc CachedConn) DelCacheCtx(ctx context.Context, keys ...string) error {
	return cc.cache.DelCtx(ctx, keys...)
}

var (
	cacheUserIdPrefix     = "cache:user:id:"
	cacheUserMobilePrefix = "cache:user:mobile:"
)

// User is a row of the user table.
type User struct {
	Id     int64
	Mobile string
}

type defaultUserModel struct {
	CachedConn
}

// Delete is goctl's generated delete for a table with a second unique index.
func (m *defaultUserModel) Delete(ctx context.Context, data *User) error {
	userIdKey := fmt.Sprintf("%s%v", cacheUserIdPrefix, data.Id)
	userMobileKey := fmt.Sprintf("%s%v", cacheUserMobilePrefix, data.Mobile)
	return m.ExecCtx(ctx, func(ctx context.Context) error {
		return nil // delete from `user` where `id` = ?
	}, userIdKey, userMobileKey)
}

func badGoZeroDelCache(ctx context.Context, e env) error {
	rds := &Redis{Type: ClusterType, client: e.rdb}
	m := &defaultUserModel{CachedConn{cache: cacheNode{rds: rds}}}
	id := rand.Int64N(1 << 40)
	mobile := e.drawApart(ctx, func(s string) (string, string) {
		return fmt.Sprintf("%s%v", cacheUserIdPrefix, id), fmt.Sprintf("%s%v", cacheUserMobilePrefix, s)
	})
	return m.Delete(ctx, &User{Id: id, Mobile: mobile})
}

func goodGoZeroDelCache(ctx context.Context, e env) error {
	rds := &Redis{Type: ClusterType, client: e.rdb}
	m := &defaultUserModel{CachedConn{cache: cacheNodeFixed{rds: rds}}}
	return m.Delete(ctx, &User{Id: rand.Int64N(1 << 40), Mobile: newID()})
}

// ---------------------------------------------------------------------------
// Source: github.com/hibiken/asynq, internal/base/base.go (QueueKey,
// InProgressQueue) and internal/rdb/rdb.go (dequeueSingle, dequeue) before
// v0.18; issue https://github.com/hibiken/asynq/issues/138 ("Lua script
// attempted to access a non local key in a cluster node"), fixed when every
// per-queue key got the {qname} hash tag (PendingKey, ActiveKey, ...).
// Shape 2 (dequeueSingle: the queue's key beside the shared in-progress
// list) and shape 5 (dequeue, in shape5_lua.go: queue keys passed in ARGV).

const (
	// QueuePrefix: LIST - asynq:queues:<qname>
	QueuePrefix = "asynq:queues:"
	// InProgressQueue: LIST
	InProgressQueue = "asynq:in_progress"
)

// QueueKey returns a redis key for the given queue name.
func QueueKey(qname string) string {
	return QueuePrefix + strings.ToLower(qname)
}

// RDB is asynq's client wrapper.
type RDB struct {
	client redis.UniversalClient
}

// Dequeue queries given queues in order and pops a task message if there is one.
func (r *RDB) Dequeue(ctx context.Context, qnames ...string) (string, error) {
	if len(qnames) == 1 {
		return r.dequeueSingle(ctx, QueueKey(qnames[0]))
	}
	var keys []string
	for _, q := range qnames {
		keys = append(keys, QueueKey(q))
	}
	return r.dequeue(ctx, keys...)
}

func (r *RDB) dequeueSingle(ctx context.Context, queue string) (data string, err error) {
	// timeout needed to avoid blocking forever
	return r.client.BRPopLPush(ctx, queue, InProgressQueue, time.Second).Result()
}

func badAsynqDequeueSingle(ctx context.Context, e env) error {
	qname := e.drawApart(ctx, func(id string) (string, string) { return QueueKey(id), InProgressQueue })
	r := &RDB{client: e.rdb}
	_, err := r.Dequeue(ctx, qname)
	return err
}

// Keys after the fix (asynq v0.18 and later).

// PendingKey returns a redis key for the given queue name.
func PendingKey(qname string) string {
	return fmt.Sprintf("asynq:{%s}:pending", qname)
}

// ActiveKey returns a redis key for the active tasks.
func ActiveKey(qname string) string {
	return fmt.Sprintf("asynq:{%s}:active", qname)
}

// PausedKey returns a redis key to indicate that the given queue is paused.
func PausedKey(qname string) string {
	return fmt.Sprintf("asynq:{%s}:paused", qname)
}

// DeadlinesKey returns a redis key for the deadlines.
func DeadlinesKey(qname string) string {
	return fmt.Sprintf("asynq:{%s}:deadlines", qname)
}

// TaskKeyPrefix returns a prefix for task key.
func TaskKeyPrefix(qname string) string {
	return fmt.Sprintf("asynq:{%s}:t:", qname)
}

// KEYS[1] -> asynq:{<qname>}:pending
// KEYS[2] -> asynq:{<qname>}:paused
// KEYS[3] -> asynq:{<qname>}:active
// KEYS[4] -> asynq:{<qname>}:deadlines
// --
// ARGV[1] -> deadline
// ARGV[2] -> task key prefix
var dequeueCmd = redis.NewScript(`
if redis.call("EXISTS", KEYS[2]) == 0 then
	local id = redis.call("RPOPLPUSH", KEYS[1], KEYS[3])
	if id then
		local key = ARGV[2] .. id
		redis.call("HSET", key, "state", "active")
		redis.call("ZADD", KEYS[4], ARGV[1], id)
		return redis.call("HGET", key, "msg")
	end
end
return nil`)

// DequeueFixed is Dequeue after the fix.
func (r *RDB) DequeueFixed(ctx context.Context, qnames ...string) (string, error) {
	for _, qname := range qnames {
		keys := []string{
			PendingKey(qname),
			PausedKey(qname),
			ActiveKey(qname),
			DeadlinesKey(qname),
		}
		argv := []interface{}{
			time.Now().Add(30 * time.Minute).Unix(),
			TaskKeyPrefix(qname),
		}
		res, err := dequeueCmd.Run(ctx, r.client, keys, argv...).Result()
		if err == redis.Nil {
			continue
		} else if err != nil {
			return "", err
		}
		return fmt.Sprint(res), nil
	}
	return "", redis.Nil
}

func goodAsynqDequeue(ctx context.Context, e env) error {
	q1, q2 := newID(), newID()
	// one task in the second queue, so the script also builds its task key
	if err := e.rdb.LPush(ctx, PendingKey(q2), "task-"+newID()).Err(); err != nil {
		return err
	}
	r := &RDB{client: e.rdb}
	_, err := r.DequeueFixed(ctx, q1, q2)
	return err
}
