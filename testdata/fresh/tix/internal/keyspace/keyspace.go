// Package keyspace holds the typed ids of the ticketing domain and the small
// helpers we use to turn them into Redis keys. Every key the service writes is
// built here so that naming stays consistent across packages.
package keyspace

import (
	"fmt"
	"strconv"
	"strings"
)

// IDs of the domain. They are distinct types so that an OrderID can never be
// passed where an EventID is expected.
type (
	EventID   int64
	VenueID   int64
	OrderID   int64
	UserID    string
	SeatID    string // "A-12", "BALC-3-7"
	PromoCode string
	ArtistID  string
)

func (id EventID) String() string { return strconv.FormatInt(int64(id), 10) }
func (id VenueID) String() string { return strconv.FormatInt(int64(id), 10) }
func (id OrderID) String() string { return strconv.FormatInt(int64(id), 10) }
func (id UserID) String() string  { return string(id) }
func (id SeatID) String() string  { return string(id) }

// ID is anything we key on.
type ID interface {
	~int64 | ~string
}

func idString[T ID](id T) string { return fmt.Sprint(id) }

// Family is a key family: a prefix and the id type that completes it.
//
//	const Event Family[EventID] = "event"
//	Event.Key(42, "meta")  // "event:42:meta"
//	Event.Tag(42, "seats") // "event:{42}:seats"
//
// Key is the historical, untagged layout; Tag is the cluster layout where the
// id is the hash tag, so everything of one entity lives on one slot.
type Family[T ID] string

// Key returns "family:id[:part...]".
func (f Family[T]) Key(id T, parts ...string) string {
	var b strings.Builder
	b.WriteString(string(f))
	b.WriteByte(':')
	b.WriteString(idString(id))
	for _, p := range parts {
		b.WriteByte(':')
		b.WriteString(p)
	}
	return b.String()
}

// Tag returns "family:{id}[:part...]".
func (f Family[T]) Tag(id T, parts ...string) string {
	s := string(f) + ":{" + idString(id) + "}"
	if len(parts) > 0 {
		s += ":" + strings.Join(parts, ":")
	}
	return s
}

// The families of the service.
const (
	Event   Family[EventID]   = "event"
	Venue   Family[VenueID]   = "venue"
	Order   Family[OrderID]   = "order"
	User    Family[UserID]    = "user"
	Cart    Family[UserID]    = "cart"
	Promo   Family[PromoCode] = "promo"
	Artist  Family[ArtistID]  = "artist"
	Archive Family[EventID]   = "archive:event"
)

// Window is a fixed time bucket index (unix seconds / size).
type Window int64

func (w Window) String() string { return strconv.FormatInt(int64(w), 10) }
