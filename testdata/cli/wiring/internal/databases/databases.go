// Package databases keeps data in databases its constructors are given:
// main gives the quarantine database 2 and the archive's options DB 3,
// which a cluster does not have, and the parking lot database 0.
package databases

import (
	"context"

	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
)

// Quarantine keeps suspicious accounts in a database of their own.
type Quarantine struct {
	cluster *redisc.Cluster
	db      int
}

// NewQuarantine returns a quarantine in database db.
func NewQuarantine(c *redisc.Cluster, db int) *Quarantine { return &Quarantine{cluster: c, db: db} }

// Add parks an account in quarantine.
func (q *Quarantine) Add(id string) error {
	conn := q.cluster.Get()
	defer conn.Close()
	if _, err := conn.Do("SELECT", q.db); err != nil { // reported: database
		return err
	}
	_, err := conn.Do("SADD", "quarantine", id)
	return err
}

// Options configure an archive.
type Options struct {
	DB int
}

// Archive copies records into another database.
type Archive struct {
	c    *redis.ClusterClient
	opts Options
}

// NewArchive returns an archive into opts.DB.
func NewArchive(c *redis.ClusterClient, opts Options) *Archive { return &Archive{c: c, opts: opts} }

// Keep copies a record into the archive's database.
func (a *Archive) Keep(ctx context.Context, key string) error {
	return a.c.Copy(ctx, key, key, a.opts.DB, true).Err() // reported: database
}

// Lot is given database 0 and a database from the environment: neither is
// reported.
type Lot struct {
	cluster *redisc.Cluster
	db      int
}

// NewLot returns a parking lot in database db.
func NewLot(c *redisc.Cluster, db int) *Lot { return &Lot{cluster: c, db: db} }

// Park selects the lot's database.
func (l *Lot) Park() error {
	conn := l.cluster.Get()
	defer conn.Close()
	_, err := conn.Do("SELECT", l.db)
	return err
}

// Reports keeps its data in a database of its own, through go-redis.
type Reports struct {
	c  *redis.ClusterClient
	db int
}

// NewReports returns reports in database db.
func NewReports(c *redis.ClusterClient, db int) *Reports { return &Reports{c: c, db: db} }

// Use selects the reports' database.
func (r *Reports) Use(ctx context.Context) error {
	return r.c.Do(ctx, "SELECT", r.db).Err() // reported: database
}
