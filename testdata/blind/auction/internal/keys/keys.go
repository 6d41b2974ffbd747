// Package keys is the single place where the auction house names its Redis
// keys. Since the move to Redis Cluster, everything that belongs to one lot,
// one bidder or one seller carries that entity's id as a hash tag so that it
// can be used together in one command, script or transaction.
package keys

import (
	"strconv"
	"strings"
	"time"
)

// LotID identifies a lot in the catalogue.
type LotID string

// BidderID identifies a registered bidder.
type BidderID string

// SellerID identifies a consignor that receives payouts.
type SellerID string

func (id LotID) String() string { return string(id) }

func (id LotID) key(part string) string {
	var b strings.Builder
	b.Grow(8 + len(id) + len(part))
	b.WriteString("lot:{")
	b.WriteString(string(id))
	b.WriteString("}:")
	b.WriteString(part)
	return b.String()
}

func (id LotID) Meta() string                 { return id.key("meta") }
func (id LotID) Draft() string                { return id.key("draft") }
func (id LotID) High() string                 { return id.key("high") }
func (id LotID) Leader() string               { return id.key("leader") }
func (id LotID) Bids() string                 { return id.key("bids") }
func (id LotID) Ends() string                 { return id.key("ends") }
func (id LotID) State() string                { return id.key("state") }
func (id LotID) Watchers() string             { return id.key("watchers") }
func (id LotID) Bidders() string              { return id.key("bidders") }
func (id LotID) Events() string               { return id.key("events") }
func (id LotID) Audit() string                { return id.key("audit") }
func (id LotID) Flags() string                { return id.key("flags") }
func (id LotID) Ending() string               { return id.key("ending") }
func (id LotID) PrevBidders() string          { return id.key("bidders:prev") }
func (id LotID) Viewers(source string) string { return id.key("viewers:" + source) }
func (id LotID) Channel(kind string) string   { return id.key("ch:" + kind) }

// LotKeys is the full set of keys a live lot owns.
type LotKeys struct {
	Meta, High, Leader, Bids, Ends, State string
}

// ForLot builds the key set for one lot.
func ForLot(id LotID) LotKeys {
	return LotKeys{
		Meta:   id.Meta(),
		High:   id.High(),
		Leader: id.Leader(),
		Bids:   id.Bids(),
		Ends:   id.Ends(),
		State:  id.State(),
	}
}

// All returns every key of the set, in a stable order.
func (k LotKeys) All() []string {
	return []string{k.Meta, k.High, k.Leader, k.Bids, k.Ends, k.State}
}

// ReserveKey holds the hidden reserve price of a lot. It was added by the
// pricing team and kept its own builder.
func ReserveKey(id LotID) string {
	return "lot:{" + string(id) + ":reserve"
}

func (b BidderID) String() string { return string(b) }

func (b BidderID) key(part string) string { return "bidder:{" + string(b) + "}:" + part }

func (b BidderID) Watchlist() string { return b.key("watch") }
func (b BidderID) Archive() string   { return b.key("watch:archive") }
func (b BidderID) Credit() string    { return b.key("credit") }
func (b BidderID) Wins() string      { return b.key("wins") }
func (b BidderID) Banned() string    { return b.key("banned") }
func (b BidderID) Session() string   { return b.key("session") }
func (b BidderID) Prefs() string     { return b.key("prefs") }
func (b BidderID) Inbox() string     { return b.key("inbox") }
func (b BidderID) LastAlert() string { return b.key("last-alert") }
func (b BidderID) Household() string { return b.key("household") }

// SeenKey is the set of lots a bidder opened in the app.
func SeenKey(b BidderID) string {
	return "bidder:{" + string(b) + ":seen"
}

func (s SellerID) String() string { return string(s) }

func (s SellerID) key(part string) string { return "payout:{" + string(s) + "}:" + part }

func (s SellerID) Pending() string { return s.key("pending") }
func (s SellerID) Paid() string    { return s.key("paid") }
func (s SellerID) Ledger() string  { return s.key("ledger") }
func (s SellerID) Queue() string   { return s.key("queue") }
func (s SellerID) Retry() string   { return s.key("queue:retry") }
func (s SellerID) Rating() string  { return "seller:{" + string(s) + "}:rating" }
func (s SellerID) Events() string  { return "seller:{" + string(s) + "}:events" }

// Global keys shared by the whole house.
const (
	OpenLots      = "lots:open"
	SnipingConfig = "config:sniping"
	PlatformFees  = "fees:platform"
	FXRates       = "fx:rates"
	HotGlobal     = "hot:global"
	Quarantine    = "fraud:quarantine"
)

// Queue names a timer queue. New queues share the {due} tag.
type Queue string

func (q Queue) Key() string { return "timers:{due}:" + string(q) }

// LegacyQueue is the pre-cluster timer queue name still used by the closer.
func LegacyQueue(name string) string { return "timers:" + name }

// Board is a hot-lots leaderboard.
type Board string

func (b Board) Hour(t time.Time) string {
	return "hot:{" + string(b) + "}:" + t.UTC().Format("2006010215")
}
func (b Board) Day(t time.Time) string {
	return "hot:{" + string(b) + "}:" + t.UTC().Format("20060102")
}
func (b Board) Watched() string    { return "hot:{" + string(b) + "}:watched" }
func (b Board) RecentBids() string { return "hot:{" + string(b) + "}:recent-bids" }

// HoursOf yields the 24 hourly keys of a day.
func (b Board) HoursOf(day time.Time) []string {
	start := day.UTC().Truncate(24 * time.Hour)
	out := make([]string, 0, 24)
	for h := range 24 {
		out = append(out, b.Hour(start.Add(time.Duration(h)*time.Hour)))
	}
	return out
}

// CategoryHot is the per-category board of the old ranking job.
func CategoryHot(category string) string { return "hot:cat:" + category }

// Facet is one search refinement (field=value).
type Facet struct{ Field, Value string }

// Key is the legacy, untagged facet key.
func (f Facet) Key() string { return "facet:" + f.Field + ":" + f.Value }

// FacetIndex groups facet sets of one search index in one slot.
type FacetIndex struct {
	Prefix string // deployment prefix, wired in main
	Name   string
}

func (ix FacetIndex) Facet(f Facet) string {
	return ix.Prefix + "facet:{" + ix.Name + "}:" + f.Field + ":" + f.Value
}

func (ix FacetIndex) Result(query string) string {
	return ix.Prefix + "facet:{" + ix.Name + "}:q:" + query
}

func (ix FacetIndex) Rank(f Facet) string {
	return ix.Prefix + "facet:{" + ix.Name + "}:rank:" + f.Field + ":" + f.Value
}

// SearchResult is where the search API caches materialised queries.
func SearchResult(index, query string) string {
	return "search:{" + index + "}:" + query
}

// RateSpace names rate-limit counters. Tag decides the slot of the counters.
type RateSpace struct{ Tag string }

func (r RateSpace) Key(parts ...string) string {
	return "rate:{" + r.Tag + "}:" + strings.Join(parts, ":")
}

// BidderRate returns the per-bidder counter for a window ("m", "h").
func BidderRate(b BidderID, window string) string { return "rate:{" + string(b) + "}:" + window }

// IPRate is the per-address counter.
func IPRate(ip string) string { return "rate:ip:" + ip }

// CatalogueDoc is the cached rendering of a lot page in the cache tier.
func CatalogueDoc(id LotID) string { return "cat:lot:" + string(id) }

// CatalogueIndex lists the cached lots of a category.
func CatalogueIndex(category string) string { return "cat:index:" + category }

// CatalogueETagged returns the document and etag keys of one lot, kept
// together on one cache shard.
func CatalogueETagged(id LotID) (doc, etag string) {
	tag := "cat:{lot:" + string(id) + "}:"
	return tag + "doc", tag + "etag"
}

// Millis renders a time as unix milliseconds for storage.
func Millis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
