package main

// Shape 3: batches of keys built with make and append, or an index store,
// in loops whose bounds are not constant.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unsafe"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// ---------------------------------------------------------------------------
// Source: github.com/HDT3213/delayqueue, delayqueue.go (garbageCollect); same
// issue and fix as badDelayQueuePending2Ready (shape1_fields.go). Shape 3.
// Bug: the keys of all garbage messages, one per message id read back from
// the garbage set, were deleted in one DEL.

func badDelayQueueGarbageCollect(ctx context.Context, e env) error {
	q := NewQueue0(newID(), &redisClusterWrapper{inner: e.rdb})
	first := newID()
	second := e.drawApart(ctx, func(id string) (string, string) { return q.genMsgKey(first), q.genMsgKey(id) })
	if err := e.rdb.SAdd(ctx, q.garbageKey, first, second).Err(); err != nil {
		return err
	}
	return q.garbageCollect()
}

func goodDelayQueueGarbageCollect(ctx context.Context, e env) error {
	q := NewQueue0(newID(), &redisClusterWrapper{inner: e.rdb}, UseHashTagKey())
	if err := e.rdb.SAdd(ctx, q.garbageKey, newID(), newID(), newID()).Err(); err != nil {
		return err
	}
	return q.garbageCollect()
}

// ---------------------------------------------------------------------------
// Source: github.com/mennanov/limiters, tokenbucket.go (TokenBucketRedis.State);
// same PR https://github.com/mennanov/limiters/pull/48 as SetState
// (shape1_fields.go). Shapes 1 and 3. Bug: MGET of the keys made from the
// prefix field, the third one appended only when raceCheck is on.

// State gets the bucket's state from Redis.
func (t *TokenBucketRedis) State(ctx context.Context) (TokenBucketState, error) {
	var values []interface{}
	var err error
	done := make(chan struct{}, 1)
	go func() {
		defer close(done)
		keys := []string{
			redisKey(t.prefix, redisKeyTBLast),
			redisKey(t.prefix, redisKeyTBAvailable),
		}
		if t.raceCheck {
			keys = append(keys, redisKey(t.prefix, redisKeyTBVersion))
		}
		values, err = t.cli.MGet(ctx, keys...).Result()
	}()

	select {
	case <-done:
	case <-ctx.Done():
		return TokenBucketState{}, ctx.Err()
	}

	if err != nil {
		return TokenBucketState{}, fmt.Errorf("failed to get keys from redis: %w", err)
	}
	return parseTokenBucketState(values)
}

// State gets the bucket's state from Redis, after the fix.
func (t *TokenBucketRedisTagged) State(ctx context.Context) (TokenBucketState, error) {
	var values []interface{}
	var err error
	done := make(chan struct{}, 1)
	go func() {
		defer close(done)
		keys := []string{
			redisKeyTagged(t.prefix, redisKeyTBLast),
			redisKeyTagged(t.prefix, redisKeyTBAvailable),
		}
		if t.raceCheck {
			keys = append(keys, redisKeyTagged(t.prefix, redisKeyTBVersion))
		}
		values, err = t.cli.MGet(ctx, keys...).Result()
	}()

	select {
	case <-done:
	case <-ctx.Done():
		return TokenBucketState{}, ctx.Err()
	}

	if err != nil {
		return TokenBucketState{}, fmt.Errorf("failed to get keys from redis: %w", err)
	}
	return parseTokenBucketState(values)
}

func parseTokenBucketState(values []interface{}) (TokenBucketState, error) {
	for _, v := range values {
		if v == nil {
			// Keys don't exist, return the initial state.
			return TokenBucketState{}, nil
		}
	}
	last, err := strconv.ParseInt(values[0].(string), 10, 64)
	if err != nil {
		return TokenBucketState{}, err
	}
	available, err := strconv.ParseInt(values[1].(string), 10, 64)
	if err != nil {
		return TokenBucketState{}, err
	}
	return TokenBucketState{Last: last, Available: available}, nil
}

func badLimitersTokenBucketState(ctx context.Context, e env) error {
	prefix := e.drawApart(ctx, func(id string) (string, string) {
		return redisKey(id, redisKeyTBLast), redisKey(id, redisKeyTBAvailable)
	})
	_, err := NewTokenBucketRedis(e.rdb, prefix, time.Minute, true).State(ctx)
	return err
}

func goodLimitersTokenBucketState(ctx context.Context, e env) error {
	_, err := NewTokenBucketRedisTagged(e.rdb, newID(), time.Minute, true).State(ctx)
	return err
}

// ---------------------------------------------------------------------------
// Source: github.com/moira-alert/moira, database/redis/trigger.go and tag.go
// (getTriggersIdsByTags, tagTriggersKey); PR
// https://github.com/moira-alert/moira/pull/684 ("Fixed trigger tags
// manipulation on redis cluster") changed tagTriggersKey from
// "moira-tag-triggers:"+tagName to "{moira-tag-triggers}:"+tagName. Shape 3.
// Bug: SINTER over one key per tag of a subscription, the tags being names
// users give.

// DbConnector is moira's Redis connector.
type DbConnector struct {
	client  *redis.UniversalClient
	context context.Context
}

func tagTriggersKey(tagName string) string {
	return "moira-tag-triggers:" + tagName
}

func (connector *DbConnector) getTriggersIdsByTags(tags []string) ([]string, error) {
	if len(tags) == 0 {
		return make([]string, 0), nil
	}

	c := *connector.client

	tagKeys := make([]string, 0, len(tags))
	for _, tag := range tags {
		tagKeys = append(tagKeys, tagTriggersKey(tag))
	}

	values, err := c.SInter(connector.context, tagKeys...).Result()
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve triggers for tags %v: %s", tags, err.Error())
	}

	return values, nil
}

func tagTriggersKeyFixed(tagName string) string {
	return "{moira-tag-triggers}:" + tagName
}

func (connector *DbConnector) getTriggersIdsByTagsFixed(tags []string) ([]string, error) {
	if len(tags) == 0 {
		return make([]string, 0), nil
	}

	c := *connector.client

	tagKeys := make([]string, 0, len(tags))
	for _, tag := range tags {
		tagKeys = append(tagKeys, tagTriggersKeyFixed(tag))
	}

	values, err := c.SInter(connector.context, tagKeys...).Result()
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve triggers for tags %v: %s", tags, err.Error())
	}

	return values, nil
}

func badMoiraTriggersByTags(ctx context.Context, e env) error {
	var client redis.UniversalClient = e.rdb
	connector := &DbConnector{client: &client, context: ctx}
	first := "team-" + newID()
	second := e.drawApart(ctx, func(id string) (string, string) { return tagTriggersKey(first), tagTriggersKey("env-" + id) })
	_, err := connector.getTriggersIdsByTags([]string{first, "env-" + second})
	return err
}

func goodMoiraTriggersByTags(ctx context.Context, e env) error {
	var client redis.UniversalClient = e.rdb
	connector := &DbConnector{client: &client, context: ctx}
	_, err := connector.getTriggersIdsByTagsFixed([]string{"team-" + newID(), "env-" + newID(), "svc-" + newID()})
	return err
}

// ---------------------------------------------------------------------------
// Source: github.com/grafana/loki, pkg/storage/chunk/cache/redis_client.go
// (RedisClient.MGet, from cortex's pkg/chunk/cache/redis_client.go); issues
// https://github.com/grafana/loki/issues/3657 and
// https://github.com/cortexproject/cortex/issues/4053. Shape 3. Bug: the
// chunk cache's MGET over a batch of chunk keys (with the key prefix added
// in a make/append loop). The good version is the rueidis-based MGet of the
// same client's later generation (found in the index, repository not
// pinned): rueidis.MGet groups the keys by slot. I did not pin the exact
// fix commit in Loki or Cortex.

// LokiRedisClient is Loki's chunk cache client (RedisClient there).
type LokiRedisClient struct {
	expiration time.Duration
	timeout    time.Duration
	rdb        redis.UniversalClient
	keyPrefix  string
}

// MGet gets the values of keys, before the fix.
func (c *LokiRedisClient) MGet(ctx context.Context, keys []string) ([][]byte, error) {
	var cancel context.CancelFunc
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}

	var requestKeys []string
	if c.keyPrefix == "" {
		requestKeys = keys
	} else {
		requestKeys = make([]string, 0, len(keys))
		for _, key := range keys {
			requestKeys = append(requestKeys, c.keyPrefix+key)
		}
	}

	cmd := c.rdb.MGet(ctx, requestKeys...)
	if err := cmd.Err(); err != nil {
		return nil, err
	}

	ret := make([][]byte, len(requestKeys))
	for i, val := range cmd.Val() {
		if val != nil {
			ret[i] = StringToBytes(val.(string))
		}
	}
	return ret, nil
}

// StringToBytes converts string to byte slice.
func StringToBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// RueidisRedisClient is the later, rueidis-based cache client.
type RueidisRedisClient struct {
	rdb     rueidis.Client
	timeout time.Duration
}

// MGet gets the values of keys, after the fix.
func (c *RueidisRedisClient) MGet(ctx context.Context, keys []string) ([][]byte, error) {
	var cancel context.CancelFunc
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}

	ret := make([][]byte, 0, len(keys))

	mgetRet, err := rueidis.MGet(c.rdb, ctx, keys)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		m, ok := mgetRet[k]
		if !ok {
			return nil, fmt.Errorf("not found key %s in results", k)
		}
		if m.IsNil() {
			ret = append(ret, nil)
			continue
		}
		r, err := m.ToString()
		if err != nil {
			return nil, errors.New("failed to convert resp to string")
		}
		ret = append(ret, StringToBytes(r))
	}
	return ret, nil
}

// chunkKeys stands for the external keys of the chunks a query fetches.
func chunkKeys(n int) []string {
	keys := make([]string, 0, n)
	for i := 0; i < n; i++ {
		keys = append(keys, "fake/"+newID()+":"+strconv.Itoa(i))
	}
	return keys
}

func badLokiMGet(ctx context.Context, e env) error {
	c := &LokiRedisClient{rdb: e.rdb, timeout: time.Second, keyPrefix: "chunks:"}
	keys := chunkKeys(1)
	second := e.drawApart(ctx, func(id string) (string, string) { return c.keyPrefix + keys[0], c.keyPrefix + "fake/" + id })
	keys = append(keys, "fake/"+second)
	_, err := c.MGet(ctx, keys)
	return err
}

func goodLokiMGet(ctx context.Context, e env) error {
	c := &RueidisRedisClient{rdb: e.ru, timeout: time.Second}
	_, err := c.MGet(ctx, chunkKeys(8))
	return err
}
