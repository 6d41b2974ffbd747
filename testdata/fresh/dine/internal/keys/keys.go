// Package keys holds the Redis key layout of the dine service.
//
// Keys written before the move to Redis Cluster ("legacy" below) keep their
// old names so that existing data stays readable; new keys put the owning
// entity in a hash tag so that everything one entity owns lives on one slot.
package keys

import (
	"fmt"
	"iter"
	"strconv"
	"time"
)

type (
	RestaurantID string
	UserID       string
	OrderID      string
	CourierID    string
	ZoneID       string
	CouponCode   string
	City         string
)

func (r RestaurantID) String() string { return string(r) }
func (u UserID) String() string       { return string(u) }
func (o OrderID) String() string      { return string(o) }

// ---- restaurants & menus ----

// Legacy menu keys.
func Menu(r RestaurantID) string        { return "menu:" + string(r) + ":items" }
func MenuVersion(r RestaurantID) string { return "menu:" + string(r) + ":version" }

// Card is the small JSON card rendered in search results.
func Card(r RestaurantID) string { return "rest:" + string(r) + ":card" }

// Rest builds a key owned by restaurant r: rest:{r}:<suffix>.
func Rest(r RestaurantID, suffix string) string {
	return "rest:{" + string(r) + "}:" + suffix
}

func Cuisine(c string) string { return "cuisine:" + c }

// CuisineIdx keeps every cuisine set on the search index's slot so that
// SINTERSTORE works on the cluster.
func CuisineIdx(c string) string { return "idx:{cuisine}:" + c }

const OpenNow = "rest:open-now"

// ---- carts ----

func CartLegacy(u UserID) string     { return "cart:" + string(u) }
func CartMetaLegacy(u UserID) string { return "cart:" + string(u) + ":meta" }
func CartNotes(u UserID) string      { return "cart:" + string(u) + ":notes" }

type CartKeys struct {
	Items, Meta, Saved, Checkout string
}

func Cart(u UserID) CartKeys {
	tag := "cart:{" + string(u) + "}"
	return CartKeys{
		Items:    tag + ":items",
		Meta:     tag + ":meta",
		Saved:    tag + ":saved",
		Checkout: tag + ":checkout",
	}
}

func CheckoutItems(u UserID) string { return "checkout:" + string(u) + ":items" }

// ---- orders ----

func Order(id OrderID) string                { return fmt.Sprintf("order:{%s}", id) }
func OrderField(id OrderID, f string) string { return fmt.Sprintf("order:{%s}:%s", id, f) }
func UserOrders(u UserID) string             { return "user:" + string(u) + ":orders" }
func ArchivedOrder(id OrderID) string        { return "archive:order:" + string(id) }
func Receipt(prefix string, id OrderID) string {
	return prefix + "receipt:" + string(id)
}

const StatsAccepted = "stats:orders:accepted"

// ---- dispatch ----

func ZoneIdle(z ZoneID) string { return "zone:" + string(z) + ":idle" }
func ZoneBusy(z ZoneID) string { return "zone:" + string(z) + ":busy" }

// Zone builds a tagged zone key: zone:{z}:<suffix>.
func Zone(z ZoneID, suffix string) string { return "zone:{" + string(z) + "}:" + suffix }

func Courier(c CourierID) string               { return "courier:" + string(c) }
func CourierPart(c CourierID, p string) string { return "courier:" + string(c) + ":" + p }
func CourierT(c CourierID, p string) string    { return "courier:{" + string(c) + "}:" + p }

// ---- promotions ----

func CouponLeft(c CouponCode) string { return "coupon:" + string(c) + ":left" }
func CouponUsed(c CouponCode) string { return "coupon:" + string(c) + ":used" }

type Coupon CouponCode

func (c Coupon) Key(f string) string { return "coupon:{" + string(c) + "}:" + f }

func Wallet(u UserID) string { return "user:{" + string(u) + "}:coupons" }

const PromoGlobal = "promo:global"

func PromoRest(r RestaurantID) string            { return "promo:rest:" + string(r) }
func PromoOf(r RestaurantID, kind string) string { return "promo:{" + string(r) + "}:" + kind }

func RedeemedOn(day time.Time) string { return "redeemed:" + day.Format("2006-01-02") }

// ---- ratings ----

func RatingSum(r RestaurantID) string   { return "rating:" + string(r) + ":sum" }
func RatingCount(r RestaurantID) string { return "rating:" + string(r) + ":count" }
func Rating(r RestaurantID, f string) string {
	return "rating:{" + string(r) + "}:" + f
}

func TopDay(d int) string             { return "top:day:" + strconv.Itoa(d) }
func TopCity(c City, f string) string { return "top:{" + string(c) + "}:" + f }

// Days yields the last n days ending at end, oldest first.
func Days(end time.Time, n int) iter.Seq[time.Time] {
	return func(yield func(time.Time) bool) {
		for i := n - 1; i >= 0; i-- {
			if !yield(end.AddDate(0, 0, -i)) {
				return
			}
		}
	}
}

// Map applies f to every element of in.
func Map[T, U any](in []T, f func(T) U) []U {
	out := make([]U, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}
