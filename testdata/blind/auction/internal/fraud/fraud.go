// Package fraud rate-limits bidding and keeps suspicious bidders aside.
package fraud

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/auction/internal/keys"
)

// ErrLimited is returned when a bidder exceeds a rate limit.
var ErrLimited = errors.New("fraud: rate limited")

// Limits are the per-window ceilings.
type Limits struct {
	PerMinute int
	PerHour   int
}

// window counter: KEYS[1]=minute KEYS[2]=hour ; ARGV[1]=max/min ARGV[2]=max/h
var twoWindows = redis.NewScript(2, `
local m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], 60) end
local h = redis.call('INCR', KEYS[2])
if h == 1 then redis.call('EXPIRE', KEYS[2], 3600) end
if m > tonumber(ARGV[1]) or h > tonumber(ARGV[2]) then return 0 end
return 1
`)

// Limiter limits bids per bidder.
type Limiter struct {
	cluster *redisc.Cluster
	limits  Limits
}

func NewLimiter(c *redisc.Cluster, l Limits) *Limiter { return &Limiter{cluster: c, limits: l} }

func runWindows(c *redisc.Cluster, l Limits, minute, hour string) error {
	conn := c.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, minute); err != nil {
		return err
	}
	ok, err := redis.Int(twoWindows.Do(conn, minute, hour, l.PerMinute, l.PerHour))
	if err != nil {
		return err
	}
	if ok == 0 {
		return ErrLimited
	}
	return nil
}

// Allow counts one bid against the bidder's minute and hour windows.
func (l *Limiter) Allow(ctx context.Context, b keys.BidderID) error {
	// case B77: none
	return runWindows(l.cluster, l.limits, keys.BidderRate(b, "m"), keys.BidderRate(b, "h"))
}

// AllowFromIP counts the bid against the bidder and the source address.
func (l *Limiter) AllowFromIP(ctx context.Context, b keys.BidderID, ip string) error {
	// case B78: crossslot
	return runWindows(l.cluster, l.limits, keys.BidderRate(b, "m"), keys.IPRate(ip))
}

// Global limits lot creation house-wide.
type Global struct {
	cluster *redisc.Cluster
	space   keys.RateSpace
	limits  Limits
}

func NewGlobal(c *redisc.Cluster, space keys.RateSpace, l Limits) *Global {
	return &Global{cluster: c, space: space, limits: l}
}

// Allow counts one new lot against the house-wide windows.
func (g *Global) Allow(ctx context.Context) error {
	// case B79: crossslot, emptytag
	return runWindows(g.cluster, g.limits, g.space.Key("lots", "m"), g.space.Key("lots", "h"))
}

// Current returns the lots created in the current minute.
func (g *Global) Current(ctx context.Context) (int, error) {
	// case B80: none
	conn, err := redisc.RetryConn(g.cluster.Get(), 3, 50*time.Millisecond)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	n, err := redis.Int(conn.Do("GET", g.space.Key("lots", "m")))
	if errors.Is(err, redis.ErrNil) {
		return 0, nil
	}
	return n, err
}

// Quarantine keeps suspicious bidders in the fraud team's database.
type Quarantine struct {
	cluster *redisc.Cluster
	db      int
}

func NewQuarantine(c *redisc.Cluster, db int) *Quarantine { return &Quarantine{cluster: c, db: db} }

// Add parks a bidder in quarantine.
func (q *Quarantine) Add(ctx context.Context, b keys.BidderID) error {
	// case B81: database
	conn := q.cluster.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, keys.Quarantine); err != nil {
		return err
	}
	if _, err := conn.Do("SELECT", q.db); err != nil {
		return err
	}
	_, err := conn.Do("SADD", keys.Quarantine, b.String())
	return err
}

// Audit lists rate-limit counters for the fraud dashboard.
type Audit struct {
	cluster *redisc.Cluster
}

func NewAudit(c *redisc.Cluster) *Audit { return &Audit{cluster: c} }

// Counters returns all live rate counters.
func (a *Audit) Counters(ctx context.Context) ([]string, error) {
	// case B82: onenode
	conn := a.cluster.Get()
	defer conn.Close()
	ks, err := redis.Strings(conn.Do("KEYS", "rate:*"))
	slices.Sort(ks)
	return ks, err
}

// CountersAllNodes asks every node.
func (a *Audit) CountersAllNodes(ctx context.Context) ([]string, error) {
	// case B83: none
	var (
		mu  sync.Mutex
		out []string
	)
	err := a.cluster.EachNode(false, func(addr string, conn redis.Conn) error {
		ks, err := redis.Strings(conn.Do("KEYS", "rate:*"))
		mu.Lock()
		out = append(out, ks...)
		mu.Unlock()
		return err
	})
	slices.Sort(out)
	return out, err
}
