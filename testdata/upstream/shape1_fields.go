package main

// Shape 1: key names built once, in a constructor, an option or a setter,
// kept in struct fields, and combined by a method in one multi-key command,
// transaction or script.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// ---------------------------------------------------------------------------
// Source: github.com/HDT3213/delayqueue, delayqueue.go (NewQueue0, pending2Ready,
// garbageCollect) and wrapper.go; issue https://github.com/HDT3213/delayqueue/issues/5,
// fix commit 89b3abbb8d498f92643a65677d87d0a30b9ec07b (adds the UseHashTagKey option,
// later always on in NewQueueOnCluster). Shapes 1, 5 (pending2Ready) and 3 (garbageCollect).
// Bug: the queue's key names were "dp:"+name+":pending", ":ready", ... built in
// the constructor, so the Lua scripts and the DEL of message keys spanned slots.

// RedisCli is delayqueue's abstraction of the client (the commands it needs).
type RedisCli interface {
	Eval(script string, keys []string, args []interface{}) (interface{}, error)
	Del(keys []string) error
	SMembers(key string) ([]string, error)
	SRem(key string, members []string) error
}

// NilErr represents redis nil.
var NilErr = errors.New("nil")

func wrapErr(err error) error {
	if err == redis.Nil {
		return NilErr
	}
	return err
}

type redisClusterWrapper struct {
	inner *redis.ClusterClient
}

func (r *redisClusterWrapper) Eval(script string, keys []string, args []interface{}) (interface{}, error) {
	ctx := context.Background()
	ret, err := r.inner.Eval(ctx, script, keys, args...).Result()
	return ret, wrapErr(err)
}

func (r *redisClusterWrapper) Del(keys []string) error {
	ctx := context.Background()
	return wrapErr(r.inner.Del(ctx, keys...).Err())
}

func (r *redisClusterWrapper) SMembers(key string) ([]string, error) {
	ctx := context.Background()
	ret, err := r.inner.SMembers(ctx, key).Result()
	return ret, wrapErr(err)
}

func (r *redisClusterWrapper) SRem(key string, members []string) error {
	ctx := context.Background()
	members2 := make([]interface{}, len(members))
	for i, v := range members {
		members2[i] = v
	}
	return wrapErr(r.inner.SRem(ctx, key, members2...).Err())
}

// DelayQueue is a message queue supporting delayed delivery based on redis.
type DelayQueue struct {
	name          string
	redisCli      RedisCli
	pendingKey    string // sorted set: message id -> delivery time
	readyKey      string // list
	unAckKey      string // sorted set: message id -> retry time
	retryKey      string // list
	retryCountKey string // hash: message id -> remain retry count
	garbageKey    string // set: message id
	useHashTag    bool
}

type hashTagKeyOpt int

// UseHashTagKey adds hashtags to redis keys so that all keys of this queue
// are allocated in the same hash slot.
func UseHashTagKey() interface{} {
	return hashTagKeyOpt(1)
}

// NewQueue0 creates a new queue.
func NewQueue0(name string, cli RedisCli, opts ...interface{}) *DelayQueue {
	useHashTag := false
	for _, opt := range opts {
		switch opt.(type) {
		case hashTagKeyOpt:
			useHashTag = true
		}
	}
	var keyPrefix string
	if useHashTag {
		keyPrefix = "{dp:" + name + "}"
	} else {
		keyPrefix = "dp:" + name
	}
	return &DelayQueue{
		name:          name,
		redisCli:      cli,
		pendingKey:    keyPrefix + ":pending",
		readyKey:      keyPrefix + ":ready",
		unAckKey:      keyPrefix + ":unack",
		retryKey:      keyPrefix + ":retry",
		retryCountKey: keyPrefix + ":retry:cnt",
		garbageKey:    keyPrefix + ":garbage",
		useHashTag:    useHashTag,
	}
}

func (q *DelayQueue) genMsgKey(idStr string) string {
	if q.useHashTag {
		return "{dp:" + q.name + "}" + ":msg:" + idStr
	}
	return "dp:" + q.name + ":msg:" + idStr
}

// pending2ReadyScript atomically moves messages from pending to ready
// keys: pendingKey, readyKey
// argv: currentTime
const pending2ReadyScript = `
local msgs = redis.call('ZRangeByScore', KEYS[1], '0', ARGV[1])  -- get ready msg
if (#msgs == 0) then return end
local args2 = {'LPush', KEYS[2]} -- push into ready
for _,v in ipairs(msgs) do
	table.insert(args2, v)
    if (#args2 == 4000) then
		redis.call(unpack(args2))
		args2 = {'LPush', KEYS[2]}
	end
end
if (#args2 > 2) then
	redis.call(unpack(args2))
end
redis.call('ZRemRangeByScore', KEYS[1], '0', ARGV[1])  -- remove msgs from pending
`

func (q *DelayQueue) pending2Ready() error {
	now := time.Now().Unix()
	keys := []string{q.pendingKey, q.readyKey}
	_, err := q.redisCli.Eval(pending2ReadyScript, keys, []interface{}{now})
	if err != nil && err != NilErr {
		return fmt.Errorf("pending2ReadyScript failed: %v", err)
	}
	return nil
}

func (q *DelayQueue) garbageCollect() error {
	msgIds, err := q.redisCli.SMembers(q.garbageKey)
	if err != nil {
		return fmt.Errorf("smembers failed: %v", err)
	}
	if len(msgIds) == 0 {
		return nil
	}
	// allow concurrent clean
	msgKeys := make([]string, 0, len(msgIds))
	for _, idStr := range msgIds {
		msgKeys = append(msgKeys, q.genMsgKey(idStr))
	}
	err = q.redisCli.Del(msgKeys)
	if err != nil && err != NilErr {
		return fmt.Errorf("del msgs failed: %v", err)
	}
	err = q.redisCli.SRem(q.garbageKey, msgIds)
	if err != nil && err != NilErr {
		return fmt.Errorf("remove from garbage key failed: %v", err)
	}
	return nil
}

func badDelayQueuePending2Ready(ctx context.Context, e env) error {
	name := e.drawApart(ctx, func(id string) (string, string) { return "dp:" + id + ":pending", "dp:" + id + ":ready" })
	q := NewQueue0(name, &redisClusterWrapper{inner: e.rdb})
	return q.pending2Ready()
}

func goodDelayQueuePending2Ready(ctx context.Context, e env) error {
	q := NewQueue0(newID(), &redisClusterWrapper{inner: e.rdb}, UseHashTagKey())
	return q.pending2Ready()
}

// ---------------------------------------------------------------------------
// Source: github.com/wellle/rmq, redis_keys.go and queue.go (newQueue,
// consumeBatch); issue https://github.com/wellle/rmq/issues/113, fixed by the
// useRedisHashTags option (getTemplate turns "[{queue}]" into "{{queue}}").
// Shapes 1, 2 and 6. Bug: the templates marked the queue name with [ ] instead
// of a hash tag, so RPOPLPUSH from the ready list to the connection's unacked
// list (queue name and connection name filled in by strings.Replace in the
// constructor) spanned slots.

const (
	connectionQueueUnackedBaseTemplate = "rmq::connection::{connection}::queue::[{queue}]::unacked" // List of deliveries consumers of {connection} are currently consuming
	queueReadyBaseTemplate             = "rmq::queue::[{queue}]::ready"                             // List of deliveries in that {queue}

	phConnection = "{connection}" // connection name
	phQueue      = "{queue}"      // queue name
)

func getTemplate(baseTemplate string, useRedisHashTags bool) string {
	if !useRedisHashTags {
		return baseTemplate
	}
	return strings.Replace(baseTemplate, "[{queue}]", "{{queue}}", 1)
}

// ErrorNotFound is returned when a list is empty.
var ErrorNotFound = errors.New("entity not found")

// RedisClient is rmq's interface to the client.
type RedisClient interface {
	RPopLPush(source, destination string) (string, error)
}

// RedisWrapper wraps go-redis.
type RedisWrapper struct {
	rawClient redis.Cmdable
}

func (wrapper RedisWrapper) RPopLPush(source, destination string) (string, error) {
	value, err := wrapper.rawClient.RPopLPush(context.TODO(), source, destination).Result()
	// println("RPOPLPUSH", source, destination, value, err)
	if err == redis.Nil {
		return "", ErrorNotFound
	}
	return value, err
}

type redisConnection struct {
	Name             string
	useRedisHashTags bool
	redisClient      RedisClient
}

type redisQueue struct {
	name           string
	connectionName string
	unackedKey     string // key to list of currently consuming deliveries
	readyKey       string // key to list of ready deliveries
	redisClient    RedisClient
	prefetchLimit  int64
}

func newQueue(name, connectionName, unackedTemplate, readyTemplate string, redisClient RedisClient) *redisQueue {
	unackedKey := strings.Replace(unackedTemplate, phConnection, connectionName, 1)
	unackedKey = strings.Replace(unackedKey, phQueue, name, 1)

	readyKey := strings.Replace(readyTemplate, phQueue, name, 1)

	return &redisQueue{
		name:           name,
		connectionName: connectionName,
		unackedKey:     unackedKey,
		readyKey:       readyKey,
		redisClient:    redisClient,
	}
}

func (connection *redisConnection) OpenQueue(name string) *redisQueue {
	return newQueue(
		name,
		connection.Name,
		getTemplate(connectionQueueUnackedBaseTemplate, connection.useRedisHashTags),
		getTemplate(queueReadyBaseTemplate, connection.useRedisHashTags),
		connection.redisClient,
	)
}

func (queue *redisQueue) consumeBatch() error {
	batchSize := queue.prefetchLimit
	for i := int64(0); i < batchSize; i++ {
		_, err := queue.redisClient.RPopLPush(queue.readyKey, queue.unackedKey)
		if err == ErrorNotFound {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func badRmqConsume(ctx context.Context, e env) error {
	conn := "consumer-" + newID()
	qname := e.drawApart(ctx, func(id string) (string, string) {
		return "rmq::queue::[" + id + "]::ready", "rmq::connection::" + conn + "::queue::[" + id + "]::unacked"
	})
	connection := &redisConnection{Name: conn, redisClient: RedisWrapper{rawClient: e.rdb}}
	queue := connection.OpenQueue(qname)
	queue.prefetchLimit = 10
	return queue.consumeBatch()
}

func goodRmqConsume(ctx context.Context, e env) error {
	connection := &redisConnection{Name: "consumer-" + newID(), useRedisHashTags: true, redisClient: RedisWrapper{rawClient: e.rdb}}
	queue := connection.OpenQueue(newID())
	queue.prefetchLimit = 10
	return queue.consumeBatch()
}

// ---------------------------------------------------------------------------
// Source: github.com/mennanov/limiters, tokenbucket.go (TokenBucketRedis,
// redisKey); PR https://github.com/mennanov/limiters/pull/48 changed
// redisKey from "%s/%s" to "{%s}%s". Shapes 1 and 5 (SetState); shape 3 is
// State, in shape3_batches.go. Bug: the prefix given to the constructor was
// kept in a field and every key was redisKey(t.prefix, ...), so the race-check
// script's three keys spanned slots.

const (
	redisKeyTBAvailable = "available"
	redisKeyTBLast      = "last"
	redisKeyTBVersion   = "version"
)

func redisKey(prefix, key string) string {
	return fmt.Sprintf("%s/%s", prefix, key)
}

// TokenBucketState represents a state of a token bucket.
type TokenBucketState struct {
	Last      int64
	Available int64
}

// TokenBucketRedis is a Redis implementation of a TokenBucketStateBackend.
type TokenBucketRedis struct {
	cli         redis.UniversalClient
	prefix      string
	ttl         time.Duration
	raceCheck   bool
	lastVersion int64
}

// NewTokenBucketRedis creates a new TokenBucketRedis instance.
func NewTokenBucketRedis(cli redis.UniversalClient, prefix string, ttl time.Duration, raceCheck bool) *TokenBucketRedis {
	return &TokenBucketRedis{cli: cli, prefix: prefix, ttl: ttl, raceCheck: raceCheck}
}

const tokenBucketSetStateScript = `
	local version = tonumber(redis.call('get', KEYS[1])) or 0
	if version > tonumber(ARGV[1]) then
		return 'RACE_CONDITION'
	end
	return {
		redis.call('incr', KEYS[1]),
		redis.call('pexpire', KEYS[1], ARGV[4]),
		redis.call('set', KEYS[2], ARGV[2], 'PX', ARGV[4]),
		redis.call('set', KEYS[3], ARGV[3], 'PX', ARGV[4]),
	}
	`

// SetState updates the state in Redis.
func (t *TokenBucketRedis) SetState(ctx context.Context, state TokenBucketState) error {
	var err error
	done := make(chan struct{}, 1)
	go func() {
		defer close(done)
		if !t.raceCheck {
			_, err = t.cli.TxPipelined(ctx, func(pipeliner redis.Pipeliner) error {
				if err = pipeliner.Set(ctx, redisKey(t.prefix, redisKeyTBLast), state.Last, t.ttl).Err(); err != nil {
					return err
				}
				return pipeliner.Set(ctx, redisKey(t.prefix, redisKeyTBAvailable), state.Available, t.ttl).Err()
			})
			return
		}
		_, err = t.cli.Eval(ctx, tokenBucketSetStateScript, []string{
			redisKey(t.prefix, redisKeyTBVersion),
			redisKey(t.prefix, redisKeyTBLast),
			redisKey(t.prefix, redisKeyTBAvailable),
		},
			t.lastVersion,
			state.Last,
			state.Available,
			// TTL in milliseconds.
			int64(t.ttl/time.Millisecond)).Result()
	}()

	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// redisKeyTagged is redisKey after the fix.
func redisKeyTagged(prefix, key string) string {
	return fmt.Sprintf("{%s}%s", prefix, key)
}

// TokenBucketRedisTagged is TokenBucketRedis after the fix.
type TokenBucketRedisTagged struct {
	cli         redis.UniversalClient
	prefix      string
	ttl         time.Duration
	raceCheck   bool
	lastVersion int64
}

// NewTokenBucketRedisTagged creates a new TokenBucketRedisTagged instance.
func NewTokenBucketRedisTagged(cli redis.UniversalClient, prefix string, ttl time.Duration, raceCheck bool) *TokenBucketRedisTagged {
	return &TokenBucketRedisTagged{cli: cli, prefix: prefix, ttl: ttl, raceCheck: raceCheck}
}

// SetState updates the state in Redis.
func (t *TokenBucketRedisTagged) SetState(ctx context.Context, state TokenBucketState) error {
	var err error
	done := make(chan struct{}, 1)
	go func() {
		defer close(done)
		if !t.raceCheck {
			_, err = t.cli.TxPipelined(ctx, func(pipeliner redis.Pipeliner) error {
				if err = pipeliner.Set(ctx, redisKeyTagged(t.prefix, redisKeyTBLast), state.Last, t.ttl).Err(); err != nil {
					return err
				}
				return pipeliner.Set(ctx, redisKeyTagged(t.prefix, redisKeyTBAvailable), state.Available, t.ttl).Err()
			})
			return
		}
		_, err = t.cli.Eval(ctx, tokenBucketSetStateScript, []string{
			redisKeyTagged(t.prefix, redisKeyTBVersion),
			redisKeyTagged(t.prefix, redisKeyTBLast),
			redisKeyTagged(t.prefix, redisKeyTBAvailable),
		},
			t.lastVersion,
			state.Last,
			state.Available,
			// TTL in milliseconds.
			int64(t.ttl/time.Millisecond)).Result()
	}()

	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

func badLimitersTokenBucketSetState(ctx context.Context, e env) error {
	prefix := e.drawApart(ctx, func(id string) (string, string) {
		return redisKey(id, redisKeyTBVersion), redisKey(id, redisKeyTBLast)
	})
	t := NewTokenBucketRedis(e.rdb, prefix, time.Minute, true)
	return t.SetState(ctx, TokenBucketState{Last: time.Now().UnixNano(), Available: 10})
}

func goodLimitersTokenBucketSetState(ctx context.Context, e env) error {
	t := NewTokenBucketRedisTagged(e.rdb, newID(), time.Minute, true)
	return t.SetState(ctx, TokenBucketState{Last: time.Now().UnixNano(), Available: 10})
}

// ---------------------------------------------------------------------------
// Source: github.com/redis/rueidis, rueidisprob/bloomfilter.go at commit
// 0b3f6883d78de7fcc29aef8c0959c7a9672ce5e4 (counter: name + ":c"); fixed in a
// later version (bfName := "{" + name + "}", counterName := bfName + ":c"), as
// asked in the review of https://github.com/redis/rueidis/pull/493. Shapes 1,
// 2 and 5. Bug: the filter key and its counter key, both derived from the
// user's name in the constructor, went to one EVAL on different slots.

const addMultiScript = `
local count = tonumber(ARGV[1])
local numElements = tonumber(#ARGV) - 1
local filterKey = KEYS[1]
local counterKey = KEYS[2]

for i = 2, numElements + 1 do
    local index = tonumber(ARGV[i])
    redis.call('SETBIT', filterKey, index, 1)
end

return redis.call('INCRBY', counterKey, count)
`

// BloomFilter based on Redis Bitmaps.
type BloomFilter interface {
	Add(ctx context.Context, key string) error
	AddMulti(ctx context.Context, keys []string) error
}

type bloomFilter struct {
	client rueidis.Client

	// name is the name of the Bloom filter.
	// It is used as a key in the Redis.
	name string

	// counter is the name of the counter.
	counter string

	// hashIterations is the number of hash functions to use.
	hashIterations uint

	// size is the number of bits to use.
	size uint
}

// NewBloomFilter creates a new Bloom filter.
// NOTE: 'name:c' is used as a counter key in the Redis
// to keep track of the number of items in the Bloom filter for Count method.
func NewBloomFilter(client rueidis.Client, name string, expectedNumberOfItems uint, falsePositiveRate float64) (BloomFilter, error) {
	if len(name) == 0 {
		return nil, errors.New("name cannot be empty")
	}
	size := numberOfBits(expectedNumberOfItems, falsePositiveRate)
	hashIterations := numberOfHashFunctions(size, expectedNumberOfItems)
	return &bloomFilter{
		client:         client,
		name:           name,
		counter:        name + ":c",
		hashIterations: hashIterations,
		size:           size,
	}, nil
}

// NewBloomFilterTagged is NewBloomFilter after the fix.
func NewBloomFilterTagged(client rueidis.Client, name string, expectedNumberOfItems uint, falsePositiveRate float64) (BloomFilter, error) {
	if len(name) == 0 {
		return nil, errors.New("name cannot be empty")
	}
	size := numberOfBits(expectedNumberOfItems, falsePositiveRate)
	hashIterations := numberOfHashFunctions(size, expectedNumberOfItems)
	// NOTE: https://redis.io/docs/reference/cluster-spec/#hash-tags
	bfName := "{" + name + "}"
	counterName := bfName + ":c"
	return &bloomFilter{
		client:         client,
		name:           bfName,
		counter:        counterName,
		hashIterations: hashIterations,
		size:           size,
	}, nil
}

func numberOfBits(n uint, r float64) uint {
	return uint(math.Ceil(-float64(n) * math.Log(r) / math.Pow(math.Log(2), 2)))
}

func numberOfHashFunctions(s uint, n uint) uint {
	return uint(math.Round(float64(s) / float64(n) * math.Log(2)))
}

func (c *bloomFilter) Add(ctx context.Context, key string) error {
	return c.AddMulti(ctx, []string{key})
}

func (c *bloomFilter) AddMulti(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}

	indexes := c.indexes(keys)

	var args []string
	args = append(args, strconv.Itoa(len(keys)))
	args = append(args, indexes...)

	resp := c.client.Do(
		ctx,
		c.client.B().
			Eval().
			Script(addMultiScript).
			Numkeys(2).
			Key(c.name, c.counter).
			Arg(args...).
			Build(),
	)
	if resp.Error() != nil {
		return resp.Error()
	}

	return nil
}

// indexes stands in for the murmur3 double hashing of the original.
func (c *bloomFilter) indexes(keys []string) []string {
	var allIndexes []string
	for _, key := range keys {
		for i := uint(0); i < c.hashIterations; i++ {
			h := fnv.New64a()
			h.Write([]byte(key))
			h.Write([]byte{byte(i)})
			allIndexes = append(allIndexes, strconv.FormatUint(h.Sum64()%uint64(c.size), 10))
		}
	}
	return allIndexes
}

func badRueidisprobBloomAdd(ctx context.Context, e env) error {
	name := e.drawApart(ctx, func(id string) (string, string) { return id, id + ":c" })
	bf, err := NewBloomFilter(e.ru, name, 1000, 0.01)
	if err != nil {
		return err
	}
	return bf.Add(ctx, "item-"+newID())
}

func goodRueidisprobBloomAdd(ctx context.Context, e env) error {
	bf, err := NewBloomFilterTagged(e.ru, newID(), 1000, 0.01)
	if err != nil {
		return err
	}
	return bf.Add(ctx, "item-"+newID())
}

// ---------------------------------------------------------------------------
// Source: github.com/zishang520/socket.io, adapters/redis/adapter/sharded-adapter.go
// (shardedRedisAdapter.Construct); issue https://github.com/zishang520/socket.io/issues/134,
// fixed by subscribing to each channel separately. Shapes 1 and 2 (shard
// channels are hashed to slots like keys). Bug: Construct built the namespace
// channel and the per-server response channel (the same prefix and namespace,
// then the server's uid) into fields and sent one SSUBSCRIBE for both.

// RedisClient of the adapter: the go-redis client and its context.
type socketRedisClient struct {
	Client  redis.UniversalClient
	Context context.Context
}

type shardedRedisAdapter struct {
	redisClient     *socketRedisClient
	channelPrefix   string
	uid             string
	channel         string
	responseChannel string
	pubSubClient    *redis.PubSub
	pubSubClients   map[string]*redis.PubSub
}

// Construct is the adapter's constructor for namespace nsp, before the fix.
func (s *shardedRedisAdapter) Construct(nsp string) {
	s.channel = s.channelPrefix + "#" + nsp + "#"
	s.responseChannel = s.channelPrefix + "#" + nsp + "#" + s.uid + "#"

	s.pubSubClient = s.redisClient.Client.SSubscribe(s.redisClient.Context, s.channel, s.responseChannel)
}

// ConstructFixed is Construct after the fix.
func (s *shardedRedisAdapter) ConstructFixed(nsp string) {
	s.channel = s.channelPrefix + "#" + nsp + "#"
	s.responseChannel = s.channelPrefix + "#" + nsp + "#" + s.uid + "#"

	// Subscribe to each channel separately to avoid CROSSSLOT errors in Redis Cluster
	channelPubSub := s.redisClient.Client.SSubscribe(s.redisClient.Context, s.channel)
	responsePubSub := s.redisClient.Client.SSubscribe(s.redisClient.Context, s.responseChannel)
	s.pubSubClients = map[string]*redis.PubSub{s.channel: channelPubSub, s.responseChannel: responsePubSub}
}

// firstReply reads the subscription's confirmation, where the original's
// receive loop reports a Redis error.
func firstReply(ctx context.Context, ps *redis.PubSub) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	msg, err := ps.Receive(ctx)
	if err != nil {
		return err
	}
	if _, ok := msg.(*redis.Subscription); !ok {
		return fmt.Errorf("unexpected reply %T", msg)
	}
	return nil
}

func badSocketioShardedSubscribe(ctx context.Context, e env) error {
	uid := e.drawApart(ctx, func(id string) (string, string) { return "socket.io#/#", "socket.io#/#" + id + "#" })
	s := &shardedRedisAdapter{redisClient: &socketRedisClient{Client: e.rdb, Context: ctx}, channelPrefix: "socket.io", uid: uid}
	s.Construct("/")
	defer s.pubSubClient.Close()
	return firstReply(ctx, s.pubSubClient)
}

func goodSocketioShardedSubscribe(ctx context.Context, e env) error {
	s := &shardedRedisAdapter{redisClient: &socketRedisClient{Client: e.rdb, Context: ctx}, channelPrefix: "socket.io", uid: newID()}
	s.ConstructFixed("/")
	for _, ps := range s.pubSubClients {
		defer ps.Close()
		if err := firstReply(ctx, ps); err != nil {
			return err
		}
	}
	return nil
}
