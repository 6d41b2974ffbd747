// Package heatmap reads zone counters with redigo: through redisc on the
// cluster, and through pools main gives it: one that dials the heatmap's
// own server, and one that dials the cluster through redisc.
package heatmap

import (
	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

type Map struct {
	cluster *redisc.Cluster
	heat    *redis.Pool
}

func New(cluster *redisc.Cluster, heat *redis.Pool) *Map { return &Map{cluster: cluster, heat: heat} }

// Cells reads the counters from the heatmap's server, which main's pool
// dials as one server: silent.
func (m *Map) Cells() ([]int, error) {
	conn := m.heat.Get()
	defer conn.Close()
	return redis.Ints(conn.Do("MGET", "heat:zone1", "heat:zone2"))
}

// Zones reads them on the cluster.
func (m *Map) Zones() ([]int, error) {
	conn := m.cluster.Get()
	defer conn.Close()
	return redis.Ints(conn.Do("MGET", "heat:zone1", "heat:zone2")) // reported: crossslot
}

// A Remote reads through a pool whose connections main has redisc dial.
type Remote struct{ pool *redis.Pool }

func NewRemote(pool *redis.Pool) *Remote { return &Remote{pool: pool} }

func (r *Remote) Cells() ([]int, error) {
	conn := r.pool.Get()
	defer conn.Close()
	return redis.Ints(conn.Do("MGET", "heat:zone1", "heat:zone2")) // reported: crossslot
}
