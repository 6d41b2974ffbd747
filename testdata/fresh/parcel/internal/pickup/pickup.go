// Package pickup issues and redeems the codes recipients type at a locker.
package pickup

import (
	"errors"
	"fmt"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/parcel/internal/keys"
)

var ErrBadCode = errors.New("pickup: wrong code")

// ConnSource hands out connections; a *redisc.Cluster in production.
type ConnSource interface {
	Get() redigo.Conn
}

type Codes struct {
	src  ConnSource
	keys keys.Space
	ttl  time.Duration
}

func NewCodes(src ConnSource, ks keys.Space, ttl time.Duration) *Codes {
	return &Codes{src: src, keys: ks, ttl: ttl}
}

// retrying wraps a cluster connection so that redirections are followed.
func retrying(c redigo.Conn) redigo.Conn {
	rc, err := redisc.RetryConn(c, 3, 50*time.Millisecond)
	if err != nil {
		return c
	}
	return rc
}

// Issue stores a new code for a parcel with a fresh attempts counter.
func (c *Codes) Issue(code string, p keys.ParcelID) error {
	// case K24: crossslot
	conn := c.src.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, c.keys.Code(code), c.keys.CodeAttempts(code)); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("SET", c.keys.Code(code), string(p), "EX", int(c.ttl.Seconds()))
	conn.Send("SET", c.keys.CodeAttempts(code), 0, "EX", int(c.ttl.Seconds()))
	_, err := conn.Do("EXEC")
	return err
}

// IssueAt stores a new code kept in the station the parcel waits at.
func (c *Codes) IssueAt(st keys.StationID, code string, p keys.ParcelID) error {
	// case K25: none
	conn := c.src.Get()
	defer conn.Close()
	codeKey, attempts := c.keys.StationCode(st, code), c.keys.StationCodeAttempts(st, code)
	if err := redisc.BindConn(conn, codeKey, attempts); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("SET", codeKey, string(p), "EX", int(c.ttl.Seconds()))
	conn.Send("SET", attempts, 0, "EX", int(c.ttl.Seconds()))
	conn.Send("HINCRBY", c.keys.StationCounters(st), "codes", 1)
	_, err := conn.Do("EXEC")
	return err
}

// IssueQuick is Issue without binding: the first command picks the node.
func (c *Codes) IssueQuick(code string, p keys.ParcelID) error {
	// case K26: crossslot
	conn := c.src.Get()
	defer conn.Close()
	conn.Send("MULTI")
	conn.Send("SET", c.keys.Code(code), string(p))
	conn.Send("INCR", c.keys.CodeAttempts(code))
	_, err := conn.Do("EXEC")
	return err
}

// redeemScript checks the code, counts the attempt and frees the locker.
var redeemScript = redigo.NewScript(2, `
local p = redis.call('GET', KEYS[1])
if p == ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 1
end
redis.call('INCR', KEYS[2])
return 0
`)

// Redeem checks a code typed at the locker.
func (c *Codes) Redeem(code string, p keys.ParcelID) (bool, error) {
	// case K27: crossslot
	conn := retrying(c.src.Get())
	defer conn.Close()
	ok, err := redigo.Bool(redeemScript.Do(conn, c.keys.Code(code), c.keys.CodeAttempts(code), string(p)))
	return ok, err
}

// RedeemAt checks a station code.
func (c *Codes) RedeemAt(st keys.StationID, code string, p keys.ParcelID) (bool, error) {
	// case K28: none
	conn := retrying(c.src.Get())
	defer conn.Close()
	ok, err := redigo.Bool(redeemScript.Do(conn, c.keys.StationCode(st, code), c.keys.StationCodeAttempts(st, code), string(p)))
	return ok, err
}

// Lookup resolves several codes at once (the courier app shows them).
func (c *Codes) Lookup(codes ...string) ([]string, error) {
	// case K29: crossslot
	conn := retrying(c.src.Get())
	defer conn.Close()
	args := make([]any, len(codes))
	for i, code := range codes {
		args[i] = c.keys.Code(code)
	}
	return redigo.Strings(conn.Do("MGET", args...))
}

// LookupSplit resolves several codes, one MGET per slot.
func (c *Codes) LookupSplit(codes ...string) (map[string]string, error) {
	// case K30: none
	conn := retrying(c.src.Get())
	defer conn.Close()
	byKey := make(map[string]string, len(codes))
	ks := make([]string, len(codes))
	for i, code := range codes {
		ks[i] = c.keys.Code(code)
		byKey[ks[i]] = code
	}
	out := make(map[string]string, len(codes))
	for _, group := range redisc.SplitBySlot(ks...) {
		args := make([]any, len(group))
		for i, k := range group {
			args[i] = k
		}
		vals, err := redigo.Strings(conn.Do("MGET", args...))
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			out[byKey[group[i]]] = v
		}
	}
	return out, nil
}

// Revoke deletes a code and its counter.
func (c *Codes) Revoke(code string) error {
	// case K31: crossslot
	conn := retrying(c.src.Get())
	defer conn.Close()
	_, err := conn.Do("DEL", c.keys.Code(code), c.keys.CodeAttempts(code))
	return err
}

// RevokeAt deletes a station code and its counter.
func (c *Codes) RevokeAt(st keys.StationID, code string) error {
	// case K32: none
	conn := retrying(c.src.Get())
	defer conn.Close()
	_, err := conn.Do("DEL", c.keys.StationCode(st, code), c.keys.StationCodeAttempts(st, code))
	return err
}

// Rotate gives a parcel a new code in place of the old one.
func (c *Codes) Rotate(st keys.StationID, oldCode, newCode string) error {
	// case K33: none
	conn := retrying(c.src.Get())
	defer conn.Close()
	_, err := conn.Do("RENAME", c.keys.StationCode(st, oldCode), c.keys.StationCode(st, newCode))
	if err != nil {
		return fmt.Errorf("rotate %s: %w", oldCode, err)
	}
	return nil
}

// Transfer moves a code to the station a parcel was redirected to.
func (c *Codes) Transfer(from, to keys.StationID, code string) error {
	// case K34: crossslot
	conn := retrying(c.src.Get())
	defer conn.Close()
	_, err := conn.Do("RENAME", c.keys.StationCode(from, code), c.keys.StationCode(to, code))
	return err
}
