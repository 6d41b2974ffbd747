// Package inventory keeps player inventories and wallets.
package inventory

import (
	"context"
	"errors"
	"strconv"

	"github.com/valkey-io/valkey-go"

	"example.com/arena/internal/ids"
)

// ErrInsufficientFunds is returned when a wallet cannot cover a price.
var ErrInsufficientFunds = errors.New("inventory: insufficient funds")

// Store is the inventory store.
type Store struct {
	c valkey.Client
}

// New returns a Store on c.
func New(c valkey.Client) *Store { return &Store{c: c} }

// Trade moves qty of item from one player's inventory to another's.
func (s *Store) Trade(ctx context.Context, from, to ids.PlayerID, item string, qty int64) error {
	// case G48: crossslot
	b := s.c.B()
	res := s.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Hincrby().Key(account(from).inventory()).Field(item).Increment(-qty).Build(),
		b.Hincrby().Key(account(to).inventory()).Field(item).Increment(qty).Build(),
		b.Exec().Build(),
	)
	return firstErr(res)
}

// Craft turns materials into an item and logs it, in one transaction.
func (s *Store) Craft(ctx context.Context, p ids.PlayerID, material string, cost int64, item string) error {
	// case G49: none
	a := account(p)
	b := s.c.B()
	res := s.c.DoMulti(ctx,
		b.Multi().Build(),
		b.Hincrby().Key(a.inventory()).Field(material).Increment(-cost).Build(),
		b.Hincrby().Key(a.inventory()).Field(item).Increment(1).Build(),
		b.Rpush().Key(a.ledger()).Element("craft:"+item).Build(),
		b.Exec().Build(),
	)
	return firstErr(res)
}

var purchase = valkey.NewLuaScript(`
local bal = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local price = tonumber(ARGV[2])
if bal < price then return -1 end
redis.call('HINCRBY', KEYS[1], ARGV[1], -price)
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
return bal - price
`)

func purchaseResult(r valkey.ValkeyResult) (int64, error) {
	n, err := r.AsInt64()
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, ErrInsufficientFunds
	}
	return n, nil
}

// PurchaseLegacy buys an item for accounts not yet migrated.
func (s *Store) PurchaseLegacy(ctx context.Context, p ids.PlayerID, currency string, price int64, item string) (int64, error) {
	// case G50: crossslot
	keys := []string{legacyWallet(p), legacyInventory(p)}
	return purchaseResult(purchase.Exec(ctx, s.c, keys, []string{currency, strconv.FormatInt(price, 10), item}))
}

// Purchase buys an item with the player's currency.
func (s *Store) Purchase(ctx context.Context, p ids.PlayerID, currency string, price int64, item string) (int64, error) {
	// case G51: none
	a := account(p)
	keys := []string{a.wallet(), a.inventory()}
	return purchaseResult(purchase.Exec(ctx, s.c, keys, []string{currency, strconv.FormatInt(price, 10), item}))
}

// CompareLoadouts returns two players' loadouts for the pre-match screen.
func (s *Store) CompareLoadouts(ctx context.Context, a, b ids.PlayerID) ([]string, error) {
	// case G52: crossslot
	return s.c.Do(ctx, s.c.B().Mget().Key(account(a).loadout(), account(b).loadout()).Build()).AsStrSlice()
}

// Loadouts returns the loadouts of a whole team.
func (s *Store) Loadouts(ctx context.Context, team ...ids.PlayerID) (map[ids.PlayerID]string, error) {
	// case G53: none
	keys := make([]string, len(team))
	for i, p := range team {
		keys[i] = account(p).loadout()
	}
	msgs, err := valkey.MGet(s.c, ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[ids.PlayerID]string, len(team))
	for i, p := range team {
		m := msgs[keys[i]]
		if v, err := m.ToString(); err == nil {
			out[p] = v
		}
	}
	return out, nil
}

// SendGift moves a gift from the sender's pending gifts to the recipient's.
func (s *Store) SendGift(ctx context.Context, from, to ids.PlayerID, gift string) (bool, error) {
	// case G54: crossslot
	cmd := s.c.B().Smove().Source(account(from).giftsPending()).Destination(account(to).giftsPending()).Member(gift).Build()
	return s.c.Do(ctx, cmd).AsBool()
}

// ClaimGift moves a received gift to the claimed set.
func (s *Store) ClaimGift(ctx context.Context, p ids.PlayerID, gift string) (bool, error) {
	// case G55: none
	a := account(p)
	cmd := s.c.B().Smove().Source(a.giftsPending()).Destination(a.giftsClaimed()).Member(gift).Build()
	return s.c.Do(ctx, cmd).AsBool()
}

// spend debits a wallet under WATCH and appends an entry to ledger.
func (s *Store) spend(ctx context.Context, p ids.PlayerID, currency string, amount int64, ledger string) error {
	wallet := account(p).wallet()
	return s.c.Dedicated(func(c valkey.DedicatedClient) error {
		if err := c.Do(ctx, c.B().Watch().Key(wallet).Build()).Error(); err != nil {
			return err
		}
		bal, err := c.Do(ctx, c.B().Hget().Key(wallet).Field(currency).Build()).AsInt64()
		if err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
		if bal < amount {
			c.Do(ctx, c.B().Unwatch().Build())
			return ErrInsufficientFunds
		}
		res := c.DoMulti(ctx,
			c.B().Multi().Build(),
			c.B().Hincrby().Key(wallet).Field(currency).Increment(-amount).Build(),
			c.B().Rpush().Key(ledger).Element(string(p)+":"+currency+":"+strconv.FormatInt(-amount, 10)).Build(),
			c.B().Exec().Build(),
		)
		return firstErr(res)
	})
}

// SpendAudited spends currency and writes the economy audit stream.
func (s *Store) SpendAudited(ctx context.Context, p ids.PlayerID, currency string, amount int64) error {
	// case G56: crossslot
	return s.spend(ctx, p, currency, amount, economyAudit)
}

// Spend spends currency and writes the player's own ledger.
func (s *Store) Spend(ctx context.Context, p ids.PlayerID, currency string, amount int64) error {
	// case G57: none
	return s.spend(ctx, p, currency, amount, account(p).ledger())
}

// PurgeLegacy deletes a player's pre-cluster keys (GDPR erasure).
func (s *Store) PurgeLegacy(ctx context.Context, p ids.PlayerID) error {
	// case G58: crossslot
	return s.c.Do(ctx, s.c.B().Del().Key(legacyInventory(p), legacyWallet(p)).Build()).Error()
}

// Purge deletes a player's inventory keys (GDPR erasure).
func (s *Store) Purge(ctx context.Context, p ids.PlayerID) error {
	// case G59: none
	return s.c.Do(ctx, s.c.B().Del().Key(account(p).keys()...).Build()).Error()
}

// Inventories loads several players' inventories for the trade window.
func (s *Store) Inventories(ctx context.Context, players ...ids.PlayerID) ([]map[string]string, error) {
	// case G60: none
	cmds := make(valkey.Commands, 0, len(players))
	for _, p := range players {
		cmds = append(cmds, s.c.B().Hgetall().Key(account(p).inventory()).Build())
	}
	out := make([]map[string]string, 0, len(players))
	for _, r := range s.c.DoMulti(ctx, cmds...) {
		m, err := r.AsStrMap()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// RotateShop publishes the next item of the shop rotation.
func (s *Store) RotateShop(ctx context.Context) (string, error) {
	// case G61: crossslot
	return s.c.Do(ctx, s.c.B().Lmove().Source(shopNext).Destination(shopLive).Left().Right().Build()).ToString()
}

// RotateShopV2 is RotateShop on the tagged rotation keys.
func (s *Store) RotateShopV2(ctx context.Context) (string, error) {
	// case G62: none
	return s.c.Do(ctx, s.c.B().Lmove().Source(shopNextV2).Destination(shopLiveV2).Left().Right().Build()).ToString()
}

func firstErr(res []valkey.ValkeyResult) error {
	for _, r := range res {
		if err := r.Error(); err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
	}
	return nil
}
