// Package dispatch assigns couriers to orders, on redigo through redisc.
package dispatch

import (
	"errors"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/dine/internal/keys"
)

// Dispatcher talks to the cluster through redisc; heat is the single
// server the heatmap job writes to.
type Dispatcher struct {
	cluster *redisc.Cluster
	heat    *redis.Pool
}

func New(cluster *redisc.Cluster, heat *redis.Pool) *Dispatcher {
	return &Dispatcher{cluster: cluster, heat: heat}
}

// conn returns a connection that follows MOVED replies.
func (d *Dispatcher) conn() (redis.Conn, error) {
	return redisc.RetryConn(d.cluster.Get(), 3, 50*time.Millisecond)
}

func closeWith(c redis.Conn, err *error) {
	if cerr := c.Close(); *err == nil {
		*err = cerr
	}
}

// Assign takes an idle courier of a zone (legacy zone sets).
func (d *Dispatcher) Assign(z keys.ZoneID, c keys.CourierID) (ok bool, err error) {
	// case H45: crossslot
	conn, err := d.conn()
	if err != nil {
		return false, err
	}
	defer closeWith(conn, &err)
	return redis.Bool(conn.Do("SMOVE", keys.ZoneIdle(z), keys.ZoneBusy(z), string(c)))
}

// AssignTagged is Assign on the zone-tagged sets.
func (d *Dispatcher) AssignTagged(z keys.ZoneID, c keys.CourierID) (ok bool, err error) {
	// case H46: none
	conn, err := d.conn()
	if err != nil {
		return false, err
	}
	defer closeWith(conn, &err)
	return redis.Bool(conn.Do("SMOVE", keys.Zone(z, "idle"), keys.Zone(z, "busy"), string(c)))
}

// Bind records the courier on the order and marks the courier busy.
func (d *Dispatcher) Bind(o keys.OrderID, c keys.CourierID) (err error) {
	// case H47: crossslot
	conn := d.cluster.Get()
	defer closeWith(conn, &err)
	if err := redisc.BindConn(conn, keys.Courier(c)); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("HSET", keys.Courier(c), "status", "busy", "order", string(o))
	conn.Send("SADD", keys.OrderField(o, "couriers"), string(c))
	_, err = conn.Do("EXEC")
	return err
}

// MarkBusy marks the courier busy and logs it, atomically.
func (d *Dispatcher) MarkBusy(o keys.OrderID, c keys.CourierID) (err error) {
	// case H48: none
	state, log := keys.CourierT(c, "state"), keys.CourierT(c, "log")
	conn := d.cluster.Get()
	defer closeWith(conn, &err)
	if err := redisc.BindConn(conn, state); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("HSET", state, "status", "busy", "order", string(o))
	conn.Send("RPUSH", log, fmt.Sprintf("busy:%s:%d", o, time.Now().Unix()))
	_, err = conn.Do("EXEC")
	return err
}

// Handoff moves an idle courier to a neighbouring zone.
func (d *Dispatcher) Handoff(from, to keys.ZoneID, c keys.CourierID) (ok bool, err error) {
	// case H49: crossslot
	conn, err := d.conn()
	if err != nil {
		return false, err
	}
	defer closeWith(conn, &err)
	return redis.Bool(conn.Do("SMOVE", keys.Zone(from, "idle"), keys.Zone(to, "idle"), string(c)))
}

// HandoffSteps moves the courier in two steps; a crash between them leaves
// the courier in both zones, which the nightly reconcile fixes.
func (d *Dispatcher) HandoffSteps(from, to keys.ZoneID, c keys.CourierID) (ok bool, err error) {
	// case H50: none
	conn, err := d.conn()
	if err != nil {
		return false, err
	}
	defer closeWith(conn, &err)
	n, err := redis.Int(conn.Do("SREM", keys.Zone(from, "idle"), string(c)))
	if err != nil || n == 0 {
		return false, err
	}
	_, err = conn.Do("SADD", keys.Zone(to, "idle"), string(c))
	return err == nil, err
}

// Offboard deletes what we keep about a courier who left.
func (d *Dispatcher) Offboard(c keys.CourierID) (err error) {
	// case H51: crossslot
	conn, err := d.conn()
	if err != nil {
		return err
	}
	defer closeWith(conn, &err)
	_, err = conn.Do("DEL", keys.CourierPart(c, "loc"), keys.CourierPart(c, "shift"), keys.CourierPart(c, "stats"))
	return err
}

// OffboardEach deletes the courier's keys one by one.
func (d *Dispatcher) OffboardEach(c keys.CourierID) (err error) {
	// case H52: none
	conn, err := d.conn()
	if err != nil {
		return err
	}
	defer closeWith(conn, &err)
	for _, part := range []string{"loc", "shift", "stats"} {
		if _, err := conn.Do("DEL", keys.CourierPart(c, part)); err != nil {
			return err
		}
	}
	return nil
}

var claimScript = redis.NewScript(2, `
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', 30)
redis.call('SREM', KEYS[2], ARGV[1])
return 1
`)

// Claim takes a courier out of the zone's idle set and pins their position.
func (d *Dispatcher) Claim(z keys.ZoneID, c keys.CourierID, pos string) (ok bool, err error) {
	// case H53: crossslot
	conn, err := d.conn()
	if err != nil {
		return false, err
	}
	defer closeWith(conn, &err)
	return redis.Bool(claimScript.Do(conn, keys.CourierT(c, "loc"), keys.Zone(z, "idle"), string(c), pos))
}

var pingScript = redis.NewScript(2, `
redis.call('SET', KEYS[1], ARGV[1], 'EX', 30)
redis.call('SET', KEYS[2], ARGV[2])
return 1
`)

// Ping records a courier's position and when it was last seen.
func (d *Dispatcher) Ping(c keys.CourierID, pos string) (err error) {
	// case H54: none
	conn, err := d.conn()
	if err != nil {
		return err
	}
	defer closeWith(conn, &err)
	_, err = pingScript.Do(conn, keys.CourierT(c, "loc"), keys.CourierT(c, "seen"), pos, time.Now().Unix())
	return err
}

// Candidates stores the couriers near a pickup point under the order.
func (d *Dispatcher) Candidates(z keys.ZoneID, o keys.OrderID, lon, lat float64) (n int, err error) {
	// case H55: crossslot
	conn, err := d.conn()
	if err != nil {
		return 0, err
	}
	defer closeWith(conn, &err)
	return redis.Int(conn.Do("GEOSEARCHSTORE", "dispatch:candidates:"+string(o), keys.Zone(z, "geo"),
		"FROMLONLAT", lon, lat, "BYRADIUS", 3, "km", "ASC", "COUNT", 10))
}

// CandidatesInZone stores the candidates under the zone.
func (d *Dispatcher) CandidatesInZone(z keys.ZoneID, o keys.OrderID, lon, lat float64) (n int, err error) {
	// case H56: none
	conn, err := d.conn()
	if err != nil {
		return 0, err
	}
	defer closeWith(conn, &err)
	return redis.Int(conn.Do("GEOSEARCHSTORE", keys.Zone(z, "cand:"+string(o)), keys.Zone(z, "geo"),
		"FROMLONLAT", lon, lat, "BYRADIUS", 3, "km", "ASC", "COUNT", 10))
}

// ShiftStats reads the stats of the couriers of a shift.
func (d *Dispatcher) ShiftStats(couriers []keys.CourierID) (stats []string, err error) {
	// case H57: crossslot
	conn, err := d.conn()
	if err != nil {
		return nil, err
	}
	defer closeWith(conn, &err)
	args := redis.Args{}
	for _, c := range couriers {
		args = args.Add(keys.CourierPart(c, "stats"))
	}
	return redis.Strings(conn.Do("MGET", args...))
}

// HeatmapCells reads the heatmap counters of several zones from the
// heatmap server.
func (d *Dispatcher) HeatmapCells(zones []keys.ZoneID) (cells []int, err error) {
	// case H58: none
	if d.heat == nil {
		return nil, errors.New("dispatch: heatmap disabled")
	}
	conn := d.heat.Get()
	defer closeWith(conn, &err)
	args := redis.Args{}
	for _, z := range zones {
		args = args.Add("heat:" + string(z))
	}
	return redis.Ints(conn.Do("MGET", args...))
}
