// Package certs issues and verifies certificates. The credentials team has
// used redigo since the first release; on the cluster it goes through redisc.
package certs

import (
	"errors"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/learn/internal/ids"
)

// Registry is the certificate store.
type Registry struct {
	cluster *redisc.Cluster
	prefix  string // "crt"
}

// NewRegistry returns a Registry on a redisc cluster.
func NewRegistry(cluster *redisc.Cluster, prefix string) *Registry {
	return &Registry{cluster: cluster, prefix: prefix}
}

// Cert is one issued certificate.
type Cert struct {
	ID     ids.CertID
	User   ids.UserID
	Course ids.CourseID
	Issued time.Time
}

// legacy keys
func (r *Registry) certKey(id ids.CertID) string { return fmt.Sprintf("%s:cert:%s", r.prefix, id) }
func (r *Registry) userCerts(u ids.UserID) string {
	return fmt.Sprintf("%s:user:%s:certs", r.prefix, u)
}
func (r *Registry) revokedKey() string { return r.prefix + ":revoked" }

// cluster layout: a learner's certificates live under the learner's tag.
func (r *Registry) held(u ids.UserID, what string) string {
	return fmt.Sprintf("%s:{%s}:%s", r.prefix, u, what)
}

// retrying returns a connection that follows MOVED replies.
func (r *Registry) retrying() (redis.Conn, error) {
	return redisc.RetryConn(r.cluster.Get(), 3, 20*time.Millisecond)
}

// Issue stores the certificate and indexes it under the learner, atomically.
func (r *Registry) Issue(c Cert) error {
	// case E41: crossslot
	conn := r.cluster.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, r.certKey(c.ID)); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("HSET", r.certKey(c.ID), "user", c.User, "course", c.Course, "issued", c.Issued.Unix())
	conn.Send("SADD", r.userCerts(c.User), c.ID)
	_, err := conn.Do("EXEC")
	return err
}

// IssueV2 is Issue on the cluster layout.
func (r *Registry) IssueV2(c Cert) error {
	// case E42: none
	conn := r.cluster.Get()
	defer conn.Close()
	key := r.held(c.User, "cert:"+string(c.ID))
	if err := redisc.BindConn(conn, key); err != nil {
		return err
	}
	conn.Send("MULTI")
	conn.Send("HSET", key, "course", c.Course, "issued", c.Issued.Unix())
	conn.Send("SADD", r.held(c.User, "certs"), c.ID)
	_, err := conn.Do("EXEC")
	return err
}

// VerifyMany checks a batch of certificate ids from an employer's upload.
func (r *Registry) VerifyMany(certIDs []ids.CertID) ([]bool, error) {
	// case E43: crossslot
	conn, err := r.retrying()
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	args := redis.Args{}
	for _, id := range certIDs {
		args = args.Add(r.certKey(id))
	}
	n, err := redis.Int(conn.Do("EXISTS", args...))
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(certIDs))
	for i := range out {
		out[i] = n == len(certIDs)
	}
	return out, nil
}

// VerifyEach checks certificate ids one by one.
func (r *Registry) VerifyEach(certIDs []ids.CertID) ([]bool, error) {
	// case E44: none
	conn, err := r.retrying()
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	out := make([]bool, len(certIDs))
	for i, id := range certIDs {
		ok, err := redis.Bool(conn.Do("EXISTS", r.certKey(id)))
		if err != nil {
			return nil, err
		}
		out[i] = ok
	}
	return out, nil
}

// revoke moves a certificate id into the revocation set and stamps the cert.
var revoke = redis.NewScript(2, `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'revoked', ARGV[2])
return redis.call('SADD', KEYS[2], ARGV[1])
`)

// Revoke marks a certificate revoked.
func (r *Registry) Revoke(id ids.CertID, at time.Time) (bool, error) {
	// case E45: crossslot
	conn, err := r.retrying()
	if err != nil {
		return false, err
	}
	defer conn.Close()
	return redis.Bool(revoke.Do(conn, r.certKey(id), r.revokedKey(), id, at.Unix()))
}

// RevokeV2 is Revoke on the cluster layout: the revocation list is per learner.
func (r *Registry) RevokeV2(u ids.UserID, id ids.CertID, at time.Time) (bool, error) {
	// case E46: none
	conn, err := r.retrying()
	if err != nil {
		return false, err
	}
	defer conn.Close()
	return redis.Bool(revoke.Do(conn, r.held(u, "cert:"+string(id)), r.held(u, "revoked"), id, at.Unix()))
}

// Reissue replaces a certificate id (a name fix) keeping its data.
func (r *Registry) Reissue(old, new ids.CertID) error {
	// case E47: crossslot
	conn, err := r.retrying()
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Do("RENAME", r.certKey(old), r.certKey(new))
	return err
}

// ReissueV2 is Reissue on the cluster layout.
func (r *Registry) ReissueV2(u ids.UserID, old, new ids.CertID) error {
	// case E48: none
	conn, err := r.retrying()
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Do("RENAME", r.held(u, "cert:"+string(old)), r.held(u, "cert:"+string(new)))
	return err
}

// ErrNoCerts is returned when a learner has no certificate.
var ErrNoCerts = errors.New("certs: none issued")

// Forget erases a learner's certificates (GDPR request).
func (r *Registry) Forget(u ids.UserID) (int, error) {
	// case E49: crossslot?
	conn, err := r.retrying()
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	list, err := redis.Strings(conn.Do("SMEMBERS", r.userCerts(u)))
	if err != nil {
		return 0, err
	}
	if len(list) == 0 {
		return 0, ErrNoCerts
	}
	args := redis.Args{}.Add(r.userCerts(u))
	for _, id := range list {
		args = args.Add(r.certKey(ids.CertID(id)))
	}
	return redis.Int(conn.Do("DEL", args...))
}

// ForgetV2 is Forget on the cluster layout.
func (r *Registry) ForgetV2(u ids.UserID) (int, error) {
	// case E50: none
	conn, err := r.retrying()
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	list, err := redis.Strings(conn.Do("SMEMBERS", r.held(u, "certs")))
	if err != nil {
		return 0, err
	}
	args := redis.Args{}.Add(r.held(u, "certs"), r.held(u, "revoked"))
	for _, id := range list {
		args = args.Add(r.held(u, "cert:"+id))
	}
	return redis.Int(conn.Do("DEL", args...))
}

// MergeAccounts gives the kept account the certificates of its duplicate.
func (r *Registry) MergeAccounts(keep, dup ids.UserID) (int, error) {
	// case E81: crossslot
	conn, err := r.retrying()
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	return redis.Int(conn.Do("SUNIONSTORE", r.held(keep, "certs"), r.held(keep, "certs"), r.held(dup, "certs")))
}

// Valid lists a learner's certificates that were not revoked.
func (r *Registry) Valid(u ids.UserID) ([]string, error) {
	// case E82: none
	conn, err := r.retrying()
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return redis.Strings(conn.Do("SDIFF", r.held(u, "certs"), r.held(u, "revoked")))
}
