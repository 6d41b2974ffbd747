// Package keys holds the identifiers shared by every loyalty component and the
// key layout of the points ledger.
//
// Everything that belongs to one member lives under the member's hash tag so
// that the ledger can update a balance, its entries and its expiry schedule in
// one transaction on Redis Cluster.
package keys

import (
	"fmt"
	"strings"
	"time"
)

// MemberID identifies a loyalty member (the card number, not the CRM id).
type MemberID string

// StoreID identifies a store, our own or a partner's.
type StoreID string

// RewardID identifies an item of the reward catalog.
type RewardID string

// CampaignID identifies a marketing campaign.
type CampaignID string

// OrderID is the POS order number a points accrual comes from.
type OrderID string

// Day is a calendar day in the chain's time zone, formatted 2006-01-02.
type Day string

// DayOf returns the Day of t.
func DayOf(t time.Time) Day { return Day(t.Format(time.DateOnly)) }

// Month returns the month of the day, formatted 2006-01.
func (d Day) Month() string { return string(d)[:7] }

// Keyspace builds the ledger keys under a deployment prefix ("lp" in
// production, "lp-stg" on staging).
type Keyspace struct {
	Prefix string
}

func (k Keyspace) member(m MemberID, suffix string) string {
	return k.Prefix + ":{" + string(m) + "}:" + suffix
}

// Balance is the member's spendable points (a string counter).
func (k Keyspace) Balance(m MemberID) string { return k.member(m, "balance") }

// Lifetime is the member's lifetime earned points, used for tiers.
func (k Keyspace) Lifetime(m MemberID) string { return k.member(m, "lifetime") }

// Entries is the member's ledger, a list of JSON entries, newest last.
func (k Keyspace) Entries(m MemberID) string { return k.member(m, "entries") }

// Expiring is a sorted set of point lots scored by their expiry time.
func (k Keyspace) Expiring(m MemberID) string { return k.member(m, "expiring") }

// Idempotency marks an accrual as applied.
func (k Keyspace) Idempotency(m MemberID, o OrderID) string {
	return k.member(m, "idem:"+string(o))
}

// Household groups members that pool their points.
func (k Keyspace) HouseholdPool(h string) string { return k.Prefix + ":hh:{" + h + "}:pool" }

// HouseholdShare is one member's contribution to a household pool.
func (k Keyspace) HouseholdShare(h string, m MemberID) string {
	return k.Prefix + ":hh:{" + h + "}:share:" + string(m)
}

// StoreDaily counts the points a store issued on a day.
func (k Keyspace) StoreDaily(s StoreID, d Day) string {
	return fmt.Sprintf("%s:store:%s:issued:%s", k.Prefix, s, d)
}

// Order marks a POS order as processed (written by the batch importer).
func (k Keyspace) Order(o OrderID) string { return k.Prefix + ":order:" + string(o) }

// StoreOrder marks a POS order as processed, grouped by store and day so a
// whole POS upload can be marked in one command.
func (k Keyspace) StoreOrder(s StoreID, d Day, o OrderID) string {
	return fmt.Sprintf("%s:orders:{%s:%s}:%s", k.Prefix, s, d, o)
}

// Issued is the chain-wide counter of outstanding points (finance report).
func (k Keyspace) Issued() string { return k.Prefix + ":issued:total" }

// Join is a small helper for ad-hoc keys.
func Join(parts ...string) string { return strings.Join(parts, ":") }
