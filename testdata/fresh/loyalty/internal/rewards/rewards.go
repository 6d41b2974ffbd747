// Package rewards is the reward catalog: items, stock, reservations and
// redemptions. The catalog team uses valkey-go directly.
package rewards

import (
	"context"
	"errors"
	"strconv"

	"github.com/valkey-io/valkey-go"

	"example.com/loyalty/internal/keys"
)

// ErrOutOfStock is returned when a reward has no stock left.
var ErrOutOfStock = errors.New("rewards: out of stock")

// Item is a catalog entry.
type Item struct {
	ID       keys.RewardID
	Title    string
	Cost     int64
	Category string
}

// Catalog is the reward repository.
type Catalog struct {
	c      valkey.Client
	prefix string
	// Ledger is where members' balances live; Redeem debits them.
	Ledger keys.Keyspace
}

// NewCatalog returns a Catalog whose keys start with prefix.
func NewCatalog(c valkey.Client, prefix string, ledger keys.Keyspace) *Catalog {
	return &Catalog{c: c, prefix: prefix, Ledger: ledger}
}

func (k *Catalog) item(r keys.RewardID) string      { return k.prefix + ":reward:{" + string(r) + "}" }
func (k *Catalog) stock(r keys.RewardID) string     { return k.item(r) + ":stock" }
func (k *Catalog) holds(r keys.RewardID) string     { return k.item(r) + ":holds" }
func (k *Catalog) redeemers(r keys.RewardID) string { return k.item(r) + ":redeemers" }
func (k *Catalog) retired(r keys.RewardID) string   { return k.prefix + ":retired:{" + string(r) + "}" }
func (k *Catalog) redemptions(m keys.MemberID) string {
	return k.prefix + ":member:{" + string(m) + "}:redemptions"
}
func (k *Catalog) category(c string) string { return k.prefix + ":cat:{" + c + "}" }
func (k *Catalog) shelf(c string) string    { return k.prefix + ":{catalog}:cat:" + c }
func (k *Catalog) featured() string         { return k.prefix + ":featured" }

var redeem = valkey.NewLuaScript(`
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock <= 0 then return redis.error_reply('OUT_OF_STOCK') end
local bal = tonumber(redis.call('GET', KEYS[3]) or '0')
local cost = tonumber(ARGV[2])
if bal < cost then return redis.error_reply('INSUFFICIENT') end
redis.call('DECR', KEYS[1])
redis.call('DECRBY', KEYS[3], cost)
redis.call('LPUSH', KEYS[2], ARGV[1])
return stock - 1
`)

// Redeem takes one unit of stock, debits the member and records the
// redemption, atomically.
func (k *Catalog) Redeem(ctx context.Context, m keys.MemberID, it Item) (int64, error) {
	// case L33: crossslot
	return redeem.Exec(ctx, k.c,
		[]string{k.stock(it.ID), k.redemptions(m), k.Ledger.Balance(m)},
		[]string{string(it.ID), strconv.FormatInt(it.Cost, 10)},
	).AsInt64()
}

var reserve = valkey.NewLuaScript(`
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock <= 0 then return -1 end
redis.call('DECR', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return stock - 1
`)

// Reserve holds one unit of stock for a member while the app confirms.
func (k *Catalog) Reserve(ctx context.Context, r keys.RewardID, m keys.MemberID, until int64) (int64, error) {
	// case L34: none
	left, err := reserve.Exec(ctx, k.c, []string{k.stock(r), k.holds(r)},
		[]string{string(m), strconv.FormatInt(until, 10)}).AsInt64()
	if err == nil && left < 0 {
		return 0, ErrOutOfStock
	}
	return left, err
}

// Put writes an item and its stock.
func (k *Catalog) Put(ctx context.Context, it Item, stock int64) error {
	// case L35: none
	cmds := valkey.Commands{
		k.c.B().Multi().Build(),
		k.c.B().Hset().Key(k.item(it.ID)).FieldValue().
			FieldValue("title", it.Title).
			FieldValue("cost", strconv.FormatInt(it.Cost, 10)).
			FieldValue("category", it.Category).Build(),
		k.c.B().Set().Key(k.stock(it.ID)).Value(strconv.FormatInt(stock, 10)).Build(),
		k.c.B().Exec().Build(),
	}
	for _, r := range k.c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Restock adds stock to several rewards after a delivery, all or nothing.
func (k *Catalog) Restock(ctx context.Context, delivery map[keys.RewardID]int64) error {
	// case L36: crossslot
	cmds := make(valkey.Commands, 0, len(delivery)+2)
	cmds = append(cmds, k.c.B().Multi().Build())
	for r, n := range delivery {
		cmds = append(cmds, k.c.B().Incrby().Key(k.stock(r)).Increment(n).Build())
	}
	cmds = append(cmds, k.c.B().Exec().Build())
	for _, r := range k.c.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// StockLevels reads the stock of several rewards in one pipeline.
func (k *Catalog) StockLevels(ctx context.Context, rs ...keys.RewardID) (map[keys.RewardID]int64, error) {
	// case L37: none
	cmds := make(valkey.Commands, len(rs))
	for i, r := range rs {
		cmds[i] = k.c.B().Get().Key(k.stock(r)).Build()
	}
	out := make(map[keys.RewardID]int64, len(rs))
	for i, res := range k.c.DoMulti(ctx, cmds...) {
		n, err := res.AsInt64()
		if valkey.IsValkeyNil(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[rs[i]] = n
	}
	return out, nil
}

// Stocks is StockLevels with one MGET.
func (k *Catalog) Stocks(ctx context.Context, rs ...keys.RewardID) ([]string, error) {
	// case L38: crossslot
	ks := make([]string, len(rs))
	for i, r := range rs {
		ks[i] = k.stock(r)
	}
	vals, err := k.c.Do(ctx, k.c.B().Mget().Key(ks...).Build()).ToArray()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i], _ = v.ToString()
	}
	return out, nil
}

// StocksByKey is Stocks through valkey-go's MGet helper.
func (k *Catalog) StocksByKey(ctx context.Context, rs ...keys.RewardID) (map[string]int64, error) {
	// case L39: none
	ks := make([]string, len(rs))
	for i, r := range rs {
		ks[i] = k.stock(r)
	}
	msgs, err := valkey.MGet(k.c, ctx, ks)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(msgs))
	for key, msg := range msgs {
		if n, err := msg.AsInt64(); err == nil {
			out[key] = n
		}
	}
	return out, nil
}

// Claim confirms a reservation: it takes the member's hold and records the
// redemption, retrying if the holds change meanwhile.
func (k *Catalog) Claim(ctx context.Context, r keys.RewardID, m keys.MemberID) error {
	// case L40: crossslot
	return k.c.Dedicated(func(dc valkey.DedicatedClient) error {
		if err := dc.Do(ctx, dc.B().Watch().Key(k.holds(r)).Build()).Error(); err != nil {
			return err
		}
		held, err := dc.Do(ctx, dc.B().Hexists().Key(k.holds(r)).Field(string(m)).Build()).AsBool()
		if err != nil {
			return err
		}
		if !held {
			dc.Do(ctx, dc.B().Unwatch().Build())
			return ErrOutOfStock
		}
		for _, res := range dc.DoMulti(ctx,
			dc.B().Multi().Build(),
			dc.B().Hdel().Key(k.holds(r)).Field(string(m)).Build(),
			dc.B().Lpush().Key(k.redemptions(m)).Element(string(r)).Build(),
			dc.B().Exec().Build(),
		) {
			if err := res.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// Release gives a held unit back to stock.
func (k *Catalog) Release(ctx context.Context, r keys.RewardID, m keys.MemberID) error {
	// case L41: none
	return k.c.Dedicated(func(dc valkey.DedicatedClient) error {
		if err := dc.Do(ctx, dc.B().Watch().Key(k.holds(r)).Build()).Error(); err != nil {
			return err
		}
		held, err := dc.Do(ctx, dc.B().Hexists().Key(k.holds(r)).Field(string(m)).Build()).AsBool()
		if err != nil || !held {
			dc.Do(ctx, dc.B().Unwatch().Build())
			return err
		}
		for _, res := range dc.DoMulti(ctx,
			dc.B().Multi().Build(),
			dc.B().Hdel().Key(k.holds(r)).Field(string(m)).Build(),
			dc.B().Incr().Key(k.stock(r)).Build(),
			dc.B().Exec().Build(),
		) {
			if err := res.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// Retire takes an item off the catalog, keeping it for old redemptions.
func (k *Catalog) Retire(ctx context.Context, r keys.RewardID) error {
	// case L42: none
	return k.c.Do(ctx, k.c.B().Rename().Key(k.item(r)).Newkey(k.retired(r)).Build()).Error()
}

// AddToCategory files a reward under a category.
func (k *Catalog) AddToCategory(ctx context.Context, r keys.RewardID, cat string) error {
	return k.c.Do(ctx, k.c.B().Sadd().Key(k.category(cat)).Member(string(r)).Build()).Error()
}

// Recategorize moves a reward from one category to another.
func (k *Catalog) Recategorize(ctx context.Context, r keys.RewardID, from, to string) (bool, error) {
	// case L43: crossslot
	return k.c.Do(ctx, k.c.B().Smove().Source(k.category(from)).Destination(k.category(to)).Member(string(r)).Build()).AsBool()
}

// Shelve files a reward on a catalog shelf (the v2 categories).
func (k *Catalog) Shelve(ctx context.Context, r keys.RewardID, cat string) error {
	return k.c.Do(ctx, k.c.B().Sadd().Key(k.shelf(cat)).Member(string(r)).Build()).Error()
}

// Reshelve is Recategorize on the v2 shelves.
func (k *Catalog) Reshelve(ctx context.Context, r keys.RewardID, from, to string) (bool, error) {
	// case L44: none
	return k.c.Do(ctx, k.c.B().Smove().Source(k.shelf(from)).Destination(k.shelf(to)).Member(string(r)).Build()).AsBool()
}

// CountRedeemer adds a member to a reward's unique-redeemer estimate.
func (k *Catalog) CountRedeemer(ctx context.Context, r keys.RewardID, m keys.MemberID) error {
	return k.c.Do(ctx, k.c.B().Pfadd().Key(k.redeemers(r)).Element(string(m)).Build()).Error()
}

// UniqueRedeemers estimates how many distinct members redeemed any of the
// rewards, merging their estimates into dest's key.
func (k *Catalog) UniqueRedeemers(ctx context.Context, dest keys.RewardID, rs ...keys.RewardID) (int64, error) {
	// case L45: crossslot
	src := make([]string, len(rs))
	for i, r := range rs {
		src[i] = k.redeemers(r)
	}
	if err := k.c.Do(ctx, k.c.B().Pfmerge().Destkey(k.redeemers(dest)).Sourcekey(src...).Build()).Error(); err != nil {
		return 0, err
	}
	return k.c.Do(ctx, k.c.B().Pfcount().Key(k.redeemers(dest)).Build()).AsInt64()
}

// Feature puts a reward on the home screen carousel with a weight.
func (k *Catalog) Feature(ctx context.Context, r keys.RewardID, weight int) error {
	for _, res := range k.c.DoMulti(ctx,
		k.c.B().Rpush().Key(k.featured()).Element(string(r)).Build(),
		k.c.B().Set().Key(k.prefix+":weight:"+string(r)).Value(strconv.Itoa(weight)).Build(),
	) {
		if err := res.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Featured returns the carousel ordered by weight.
func (k *Catalog) Featured(ctx context.Context) ([]string, error) {
	// case L46: sortpattern
	return k.c.Do(ctx, k.c.B().Sort().Key(k.featured()).By(k.prefix+":weight:*").Desc().Build()).AsStrSlice()
}
