// Package promo manages promo codes: how many uses are left and who used
// them. It predates the go-redis migration and still runs on redigo, with
// redisc for the cluster.
package promo

import (
	"errors"
	"fmt"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/tix/internal/keyspace"
)

// ErrExhausted is returned when a code has no uses left.
var ErrExhausted = errors.New("promo: code exhausted")

// Codes is the promo code store.
type Codes struct {
	cluster *redisc.Cluster
}

// New returns a store over a redisc cluster.
func New(c *redisc.Cluster) *Codes { return &Codes{cluster: c} }

// Key helpers. The v1 keys predate the cluster; v2 tags them by code.
func usesKey(c keyspace.PromoCode) string     { return "promo:" + string(c) + ":uses" }
func redeemedKey(c keyspace.PromoCode) string { return "promo:" + string(c) + ":redeemed" }
func usesKeyV2(c keyspace.PromoCode) string   { return keyspace.Promo.Tag(c, "uses") }
func redeemedKeyV2(c keyspace.PromoCode) string {
	return keyspace.Promo.Tag(c, "redeemed")
}
func labelKey(c keyspace.PromoCode) string { return keyspace.Promo.Tag(c, "label") }
func walletKey(u keyspace.UserID) string   { return keyspace.User.Tag(u, "promos") }

// Create sets up a code with a number of uses and a label.
func (p *Codes) Create(code keyspace.PromoCode, label string, uses int) error {
	conn := p.cluster.Get()
	defer conn.Close()
	rc, err := redisc.RetryConn(conn, 3, 0)
	if err != nil {
		return err
	}
	for _, args := range [][]any{
		{usesKey(code), uses}, {usesKeyV2(code), uses}, {labelKey(code), label},
	} {
		if _, err := rc.Do("SET", args...); err != nil {
			return err
		}
	}
	return nil
}

// Redeem uses a code once for a user, atomically.
func (p *Codes) Redeem(code keyspace.PromoCode, u keyspace.UserID) error {
	// case T62: crossslot
	conn := p.cluster.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, usesKey(code)); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("DECR", usesKey(code))
	conn.Send("SADD", redeemedKey(code), string(u))
	vals, err := redis.Values(conn.Do("EXEC"))
	if err != nil {
		return err
	}
	if left, _ := redis.Int64(vals[0], nil); left < 0 {
		return ErrExhausted
	}
	return nil
}

// RedeemV2 is Redeem on the tagged keys.
func (p *Codes) RedeemV2(code keyspace.PromoCode, u keyspace.UserID) error {
	// case T63: none
	conn := p.cluster.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, usesKeyV2(code), redeemedKeyV2(code)); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("DECR", usesKeyV2(code))
	conn.Send("SADD", redeemedKeyV2(code), string(u))
	vals, err := redis.Values(conn.Do("EXEC"))
	if err != nil {
		return err
	}
	if left, _ := redis.Int64(vals[0], nil); left < 0 {
		return ErrExhausted
	}
	return nil
}

// Labels returns the display labels of several codes (the checkout page
// shows every code a user typed).
func (p *Codes) Labels(codes ...keyspace.PromoCode) ([]string, error) {
	// case T64: crossslot
	conn := p.cluster.Get()
	defer conn.Close()
	args := redis.Args{}
	for _, c := range codes {
		args = args.Add(labelKey(c))
	}
	return redis.Strings(conn.Do("MGET", args...))
}

// LabelsV2 reads the labels one GET per code, following redirections.
func (p *Codes) LabelsV2(codes ...keyspace.PromoCode) ([]string, error) {
	// case T65: none
	conn := p.cluster.Get()
	defer conn.Close()
	rc, err := redisc.RetryConn(conn, 3, 0)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(codes))
	for _, c := range codes {
		s, err := redis.String(rc.Do("GET", labelKey(c)))
		if err != nil && !errors.Is(err, redis.ErrNil) {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Clone copies a code's remaining uses to a new code (a partner campaign).
func (p *Codes) Clone(from, to keyspace.PromoCode) error {
	// case T66: crossslot
	conn := p.cluster.Get()
	defer conn.Close()
	_, err := conn.Do("COPY", usesKeyV2(from), usesKeyV2(to))
	return err
}

// Rebrand gives a code a new label, keeping the old one for the audit log.
func (p *Codes) Rebrand(code keyspace.PromoCode, label string) error {
	// case T67: none
	conn := p.cluster.Get()
	defer conn.Close()
	if _, err := conn.Do("COPY", labelKey(code), keyspace.Promo.Tag(code, "label", "prev"), "REPLACE"); err != nil {
		return err
	}
	_, err := conn.Do("SET", labelKey(code), label)
	return err
}

// Attach records a redeemed code in the user's wallet, in the same
// transaction as the redemption.
func (p *Codes) Attach(code keyspace.PromoCode, u keyspace.UserID) error {
	// case T68: crossslot
	conn := p.cluster.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, usesKeyV2(code), walletKey(u)); err != nil {
		return fmt.Errorf("attach %s: %w", code, err)
	}
	conn.Send("MULTI")
	conn.Send("DECR", usesKeyV2(code))
	conn.Send("SADD", walletKey(u), string(code))
	_, err := conn.Do("EXEC")
	return err
}

// Usage reads uses left and redemptions of one code.
func (p *Codes) Usage(code keyspace.PromoCode) (left int64, redeemed int64, err error) {
	// case T69: none
	conn := p.cluster.Get()
	defer conn.Close()
	if err = redisc.BindConn(conn, usesKeyV2(code)); err != nil {
		return
	}
	conn.Send("GET", usesKeyV2(code))
	conn.Send("SCARD", redeemedKeyV2(code))
	if err = conn.Flush(); err != nil {
		return
	}
	if left, err = redis.Int64(conn.Receive()); err != nil {
		return
	}
	redeemed, err = redis.Int64(conn.Receive())
	return
}
