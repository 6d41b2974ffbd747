// Package expiry runs the nightly job that expires points whose lots reached
// their expiry date.
package expiry

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/loyalty/internal/keys"
)

// Redis is the part of the go-redis API the sweeper uses; the job gets the
// ledger's client.
type Redis interface {
	redis.Scripter
	Pipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
	SAdd(ctx context.Context, key string, members ...any) *redis.IntCmd
	SMove(ctx context.Context, source, destination string, member any) *redis.BoolCmd
	LMove(ctx context.Context, source, destination, srcpos, destpos string) *redis.StringCmd
	LPush(ctx context.Context, key string, values ...any) *redis.IntCmd
}

// Sweeper expires lots.
type Sweeper struct {
	rdb    Redis
	ledger keys.Keyspace
	// Queue is the work queue name; buckets and queues of one sweeper share it.
	Queue  string
	Worker string
}

// expireLots removes every lot of a member that expired before ARGV[1] and
// takes its points off the balance.
var expireLots = redis.NewScript(`
local lots = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local total = 0
for _, lot in ipairs(lots) do
  local e = cjson.decode(lot)
  total = total + e.points
end
if total > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
  local bal = tonumber(redis.call('GET', KEYS[2]) or '0')
  if total > bal then total = bal end
  redis.call('DECRBY', KEYS[2], total)
end
return total
`)

// New returns a Sweeper.
func New(rdb Redis, ledger keys.Keyspace, queue, worker string) *Sweeper {
	return &Sweeper{rdb: rdb, ledger: ledger, Queue: queue, Worker: worker}
}

// ExpireMember expires one member's lots.
func (s *Sweeper) ExpireMember(ctx context.Context, m keys.MemberID, now time.Time) (int64, error) {
	// case L16: none
	return expireLots.Run(ctx, s.rdb, []string{s.ledger.Expiring(m), s.ledger.Balance(m)}, now.Unix()).Int64()
}

// expireAndReport is expireLots that also lowers the finance counter of
// outstanding points.
var expireAndReport = redis.NewScript(`
local lots = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local total = 0
for _, lot in ipairs(lots) do
  total = total + cjson.decode(lot).points
end
if total > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
  redis.call('DECRBY', KEYS[2], total)
  redis.call('DECRBY', 'lp:issued:total', total)
end
return total
`)

// ExpireMemberReported is ExpireMember for the finance-reconciled run.
func (s *Sweeper) ExpireMemberReported(ctx context.Context, m keys.MemberID, now time.Time) (int64, error) {
	// case L17: scriptslot
	return expireAndReport.Run(ctx, s.rdb, []string{s.ledger.Expiring(m), s.ledger.Balance(m)}, now.Unix()).Int64()
}

// ExpireAll expires many members in pipelined batches.
func (s *Sweeper) ExpireAll(ctx context.Context, ms []keys.MemberID, now time.Time) error {
	// case L18: none
	// A pipeline cannot fall back from EVALSHA to EVAL, so load the script
	// first (a cluster client loads it on every master).
	if err := expireLots.Load(ctx, s.rdb).Err(); err != nil {
		return err
	}
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, m := range ms {
			expireLots.EvalSha(ctx, p, []string{s.ledger.Expiring(m), s.ledger.Balance(m)}, now.Unix())
		}
		return nil
	})
	return err
}

func bucketKey(d keys.Day) string { return "exp:bucket:" + string(d) }
func doneKey(d keys.Day) string   { return "exp:done:" + string(d) }

// Schedule puts a member in the bucket of the day their next lot expires.
func (s *Sweeper) Schedule(ctx context.Context, m keys.MemberID, d keys.Day) error {
	return s.rdb.SAdd(ctx, bucketKey(d), string(m)).Err()
}

// MarkDone moves a member from the day's bucket to the done set.
func (s *Sweeper) MarkDone(ctx context.Context, m keys.MemberID, d keys.Day) (bool, error) {
	// case L19: crossslot
	return s.rdb.SMove(ctx, bucketKey(d), doneKey(d), string(m)).Result()
}

// The v2 buckets keep a day's sets on the day's slot.
func pendingKey(d keys.Day) string  { return fmt.Sprintf("exp:{%s}:pending", d) }
func finishedKey(d keys.Day) string { return fmt.Sprintf("exp:{%s}:finished", d) }

// SchedulePending is Schedule for the v2 buckets.
func (s *Sweeper) SchedulePending(ctx context.Context, m keys.MemberID, d keys.Day) error {
	return s.rdb.SAdd(ctx, pendingKey(d), string(m)).Err()
}

// Finish moves a member from the day's pending set to its finished set.
func (s *Sweeper) Finish(ctx context.Context, m keys.MemberID, d keys.Day) (bool, error) {
	// case L20: none
	return s.rdb.SMove(ctx, pendingKey(d), finishedKey(d), string(m)).Result()
}

// Enqueue adds a member to the sweep queue.
func (s *Sweeper) Enqueue(ctx context.Context, m keys.MemberID) error {
	return s.rdb.LPush(ctx, "exp:queue:"+s.Queue, string(m)).Err()
}

// Claim takes the next member off the queue into this worker's processing
// list (reliable queue pattern).
func (s *Sweeper) Claim(ctx context.Context) (keys.MemberID, error) {
	// case L21: crossslot
	m, err := s.rdb.LMove(ctx, "exp:queue:"+s.Queue, "exp:processing:"+s.Worker, "RIGHT", "LEFT").Result()
	return keys.MemberID(m), err
}

// EnqueueTagged adds a member to the v2 queue.
func (s *Sweeper) EnqueueTagged(ctx context.Context, m keys.MemberID) error {
	return s.rdb.LPush(ctx, "exp:{"+s.Queue+"}:queue", string(m)).Err()
}

// ClaimTagged is Claim on the v2 queue, whose processing lists share the
// queue's tag.
func (s *Sweeper) ClaimTagged(ctx context.Context) (keys.MemberID, error) {
	// case L22: none
	m, err := s.rdb.LMove(ctx, "exp:{"+s.Queue+"}:queue", "exp:{"+s.Queue+"}:processing:"+s.Worker, "RIGHT", "LEFT").Result()
	return keys.MemberID(m), err
}
