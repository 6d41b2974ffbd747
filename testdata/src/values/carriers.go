package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

func entityKey(id, field string) string { return "user:" + id + ":" + field }

// A local struct's fields, set once by its literal: each field is the
// value the literal gave it.
type keyPair struct{ From, To string }

func structFields(ctx context.Context, rdb *goredis.ClusterClient) {
	p := keyPair{From: entityKey("1001", "profile"), To: entityKey("1002", "profile")}
	rdb.MGet(ctx, p.From, p.To) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
	q := keyPair{From: entityKey("{1001}", "profile"), To: entityKey("{1001}", "settings")}
	rdb.MGet(ctx, q.From, q.To)
	var r keyPair
	r.From = entityKey("1001", "profile")
	r.To = entityKey("1002", "profile")
	rdb.MGet(ctx, r.From, r.To) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
}

// Near-misses: a struct whose address a function is given may be changed
// by it, and a field set twice is not one value.
func structFieldsUnknown(ctx context.Context, rdb *goredis.ClusterClient, retarget func(*keyPair), other bool) {
	p := keyPair{From: entityKey("1001", "profile"), To: entityKey("1002", "profile")}
	retarget(&p)
	rdb.MGet(ctx, p.From, p.To)
	q := keyPair{From: entityKey("{1001}", "profile"), To: entityKey("1002", "profile")}
	if other {
		q.To = entityKey("{1001}", "settings")
	}
	rdb.MGet(ctx, q.From, q.To)
}

// A map literal read with constant keys: each lookup is the value set for
// its key.
func mapLiteral(ctx context.Context, rdb *goredis.ClusterClient) {
	m := map[string]string{"from": entityKey("1001", "profile"), "to": entityKey("1002", "profile")}
	rdb.MGet(ctx, m["from"], m["to"]) // want `MGet keys "user:1001:profile" \(slot 2549\) and "user:1002:profile" \(slot 9393\) are on different hash slots`
	n := map[string]string{"from": entityKey("{1001}", "profile"), "to": entityKey("{1001}", "settings")}
	rdb.MGet(ctx, n["from"], n["to"])
}

// Near-misses: a map a function is given, or set again on some path, or
// read with a key the code does not fix.
func mapLiteralUnknown(ctx context.Context, rdb *goredis.ClusterClient, fill func(map[string]string), other bool, which string) {
	m := map[string]string{"from": entityKey("1001", "profile"), "to": entityKey("1002", "profile")}
	fill(m)
	rdb.MGet(ctx, m["from"], m["to"])
	n := map[string]string{"from": entityKey("{1001}", "profile"), "to": entityKey("1002", "profile")}
	if other {
		n["to"] = entityKey("{1001}", "settings")
	}
	rdb.MGet(ctx, n["from"], n["to"])
	o := map[string]string{"from": entityKey("1001", "profile"), "to": entityKey("1002", "profile")}
	rdb.MGet(ctx, o[which], o["to"])
}

// A transaction's callback ranging over a slice of keys the function
// fixes sends one command per element, each with that element's key.
func rangedInTransaction(ctx context.Context, rdb *goredis.ClusterClient) {
	ks := []string{entityKey("1001", "profile"), entityKey("1002", "profile")}
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range ks {
			p.Get(ctx, k) // want `TxPipelined keys "user:1001:profile" \(slot 2549, Get\) and "user:1002:profile" \(slot 9393, Get\) are on different hash slots`
		}
		return nil
	})
	mine := []string{entityKey("{1001}", "profile"), entityKey("{1001}", "settings")}
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range mine {
			p.Get(ctx, k)
		}
		return nil
	})
}

// Near-miss: a slice the callback is not given whole (appended to after
// the callback is made) is not a fixed list of keys.
func rangedInTransactionLater(ctx context.Context, rdb *goredis.ClusterClient, more bool) {
	ks := []string{entityKey("{1001}", "profile")}
	if more {
		ks = append(ks, entityKey("{1001}", "settings"))
	}
	rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, k := range ks {
			p.Get(ctx, k)
		}
		return nil
	})
}
