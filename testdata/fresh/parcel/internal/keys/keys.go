// Package keys builds every Redis key the parcel service uses.
//
// Keys that belong to one station share the station's hash tag, so a station's
// lockers, free set and counters can be changed together. Parcels and couriers
// were keyed before the move to Redis Cluster and still carry no tag.
package keys

import (
	"fmt"
	"strconv"
	"time"
)

type (
	StationID string
	ParcelID  string
	CourierID string
	LockerNo  int
)

// Space is the key space of one deployment.
type Space struct {
	Prefix string
}

func (s Space) join(parts ...string) string {
	out := s.Prefix
	for _, p := range parts {
		out += ":" + p
	}
	return out
}

func stationTag(st StationID) string { return "{st-" + string(st) + "}" }

// Station keys (tagged).

func (s Space) StationInfo(st StationID) string     { return s.join(stationTag(st), "info") }
func (s Space) StationFree(st StationID) string     { return s.join(stationTag(st), "free") }
func (s Space) StationBusy(st StationID) string     { return s.join(stationTag(st), "busy") }
func (s Space) StationCounters(st StationID) string { return s.join(stationTag(st), "counters") }
func (s Space) StationInbox(st StationID) string    { return s.join(stationTag(st), "inbox") }
func (s Space) Locker(st StationID, n LockerNo) string {
	return s.join(stationTag(st), "locker", strconv.Itoa(int(n)))
}

// StationParcel is the parcel record kept inside its station, once dropped off.
func (s Space) StationParcel(st StationID, p ParcelID) string {
	return s.join(stationTag(st), "parcel", string(p))
}

// Parcel keys (legacy, untagged).

func (s Space) Parcel(p ParcelID) string       { return s.join("parcel", string(p)) }
func (s Space) ParcelEvents(p ParcelID) string { return s.join("parcel", string(p), "events") }
func (s Space) ParcelStatus(p ParcelID) string { return s.join("parcel", string(p), "status") }

// Courier keys.

func (s Space) CourierRoute(c CourierID) string { return s.join("courier", string(c), "route") }
func (s Space) CourierLoad(c CourierID) string  { return s.join("courier", string(c), "load") }

// CourierBag is tagged by courier: everything a courier carries right now.
func (s Space) CourierBag(c CourierID) string { return fmt.Sprintf("%s:courier:{%s}:bag", s.Prefix, c) }
func (s Space) CourierSeen(c CourierID) string {
	return fmt.Sprintf("%s:courier:{%s}:seen", s.Prefix, c)
}

// Pickup codes.

func (s Space) Code(code string) string         { return s.join("code", code) }
func (s Space) CodeAttempts(code string) string { return s.join("code", code, "attempts") }
func (s Space) StationCode(st StationID, code string) string {
	return s.join(stationTag(st), "code", code)
}
func (s Space) StationCodeAttempts(st StationID, code string) string {
	return s.join(stationTag(st), "code", code, "attempts")
}

// Reports.

func Day(t time.Time) string { return t.UTC().Format("2006-01-02") }

func (s Space) DailyReport(st StationID, day string) string {
	return s.join("report", string(st), day)
}
func (s Space) DailyTotal(day string) string { return s.join("report", "all", day) }
func (s Space) StationReport(st StationID, day string) string {
	return s.join(stationTag(st), "report", day)
}
