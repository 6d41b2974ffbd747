// Package keys holds the Redis key layout of the fleet backend.
//
// The v1 layout ("driver:<id>:loc") predates the cluster migration and is
// still read by parts of the code base. The v2 layout puts the owning entity
// in a hash tag ("drv:{<id>}:loc") so that an entity's keys share a slot.
package keys

import (
	"fmt"
	"strconv"
	"strings"
)

// DriverID identifies a driver ("d-1001").
type DriverID string

// RiderID identifies a rider ("r-501").
type RiderID string

// VehicleID identifies a vehicle (its fleet plate number).
type VehicleID string

// TripID identifies a trip.
type TripID int64

// CellID is a geo cell (an H3-like index rendered as text).
type CellID string

func (id TripID) String() string { return strconv.FormatInt(int64(id), 10) }

// ---- v1 layout -------------------------------------------------------------

// Driver is the driver's profile hash.
func Driver(id DriverID) string { return "driver:" + string(id) }

// DriverLoc is the driver's last reported position.
func DriverLoc(id DriverID) string { return fmt.Sprintf("driver:%s:loc", id) }

// DriverStatus is online/offline/busy.
func DriverStatus(id DriverID) string { return fmt.Sprintf("driver:%s:status", id) }

// DriverRating is the driver's rolling rating.
func DriverRating(id DriverID) string { return "driver:" + string(id) + ":rating" }

// DriverCurrentTrip holds the trip a driver is on.
func DriverCurrentTrip(id DriverID) string { return fmt.Sprintf("driver:%s:current_trip", id) }

// Trip is the trip's state hash.
func Trip(id TripID) string { return "trip:" + id.String() }

// TripFare is the fare quote of a trip.
func TripFare(id TripID) string { return fmt.Sprintf("trip:%d:fare", id) }

// RiderTrips is the set of a rider's trips.
func RiderTrips(id RiderID) string { return fmt.Sprintf("rider:%s:trips", id) }

// Vehicle is a vehicle attribute key.
func Vehicle(id VehicleID, attr string) string {
	var b strings.Builder
	b.WriteString("vehicle:")
	b.WriteString(string(id))
	b.WriteString(":")
	b.WriteString(attr)
	return b.String()
}

// ---- v2 layout (cluster-safe) ----------------------------------------------

// Key returns one of the driver's keys in the v2 layout.
func (id DriverID) Key(suffix string) string {
	return "drv:{" + string(id) + "}:" + suffix
}

// Key returns one of the trip's keys in the v2 layout.
func (id TripID) Key(part string) string {
	var b strings.Builder
	b.Grow(24 + len(part))
	b.WriteString("trip:{")
	b.WriteString(strconv.FormatInt(int64(id), 10))
	b.WriteString("}:")
	b.WriteString(part)
	return b.String()
}

// Key returns one of the rider's keys in the v2 layout.
func (id RiderID) Key(part string) string { return fmt.Sprintf("rider:{%s}:%s", id, part) }

// Key returns one of the vehicle's keys in the v2 layout.
func (id VehicleID) Key(attr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vehicle:{%s}:", id)
	b.WriteString(attr)
	return b.String()
}
