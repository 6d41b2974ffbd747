package values

import (
	"context"
	"strings"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A Space is a key namespace that may be left empty: a key is the parts
// alone, or the parts after the namespace. Two keys of one namespace take
// the same way, so two members' keys are apart either way; keys of two
// namespaces may take different ways.
type Space string

func (s Space) Join(parts ...string) string { // want Join:`key join\(p2, ":"\) when p1 == "" \| p1\+":"\+join\(p2, ":"\)`
	if s == "" {
		return strings.Join(parts, ":")
	}
	return string(s) + ":" + strings.Join(parts, ":")
}

type spaces struct{ ns, other Space }

func (sp spaces) emptyNamespace(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, a, b string, ids []string) {
	ns, other := sp.ns, sp.other
	rdb.Rename(ctx, ns.Join("sess", a), ns.Join("sess", b)) // want `Rename keys "sess:<a>" and "sess:<b>" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	var ks []string
	for _, id := range ids {
		ks = append(ks, ns.Join("course", id, "enrolled"))
	}
	rdb.MGet(ctx, ks...)                                                                 // want `MGet keys "course:<ids\[i\]>:enrolled" for two different elements of ids are on different hash slots .*unless sp.ns holds a hash tag`
	c.Do(ctx, c.B().Mget().Key(ks...).Build())                                           // want `MGET keys "course:<ids\[i\]>:enrolled" for two different elements of ids are on different hash slots`
	c.Do(ctx, c.B().Rename().Key(ns.Join("sess", a)).Newkey(ns.Join("sess", b)).Build()) // want `RENAME keys "sess:<a>" and "sess:<b>" are on different hash slots`

	// One member's keys share its tag, whichever way the namespace takes.
	rdb.Rename(ctx, ns.Join("sess", "{"+a+"}"), ns.Join("old", "{"+a+"}"))
	c.Do(ctx, c.B().Rename().Key(ns.Join("sess", "{"+a+"}")).Newkey(ns.Join("old", "{"+a+"}")).Build())
	// Two namespaces, both empty: one key.
	rdb.Rename(ctx, ns.Join("sess", a), other.Join("sess", a))
	// A namespace that is never empty takes one way only.
	rdb.Rename(ctx, Space("{app}").Join("sess", a), Space("{app}").Join("sess", b))
	rdb.Rename(ctx, Space("").Join("sess", "{"+a+"}"), Space("").Join("old", "{"+a+"}"))
}

// A store's prefix field, tested by length, before the key.
type prefixedStore struct {
	prefix string
}

func (st *prefixedStore) key(parts ...string) string {
	if len(st.prefix) > 0 {
		return st.prefix + "/" + strings.Join(parts, "/")
	}
	return strings.Join(parts, "/")
}

func withTenant(tenant, k string) string {
	if tenant != "" {
		return tenant + "/" + k
	}
	return k
}

func emptyPrefixField(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, st *prefixedStore, a, b string) {
	t := st.prefix
	rdb.Rename(ctx, st.key("cart", a), st.key("cart", b))                                            // want `Rename keys "<st.prefix>/cart/<a>" and "<st.prefix>/cart/<b>" are on different hash slots .*unless st.prefix holds a hash tag`
	c.Do(ctx, c.B().Rename().Key(withTenant(t, "cart:"+a)).Newkey(withTenant(t, "cart:"+b)).Build()) // want `RENAME keys "<st.prefix>/cart:<a>" and "<st.prefix>/cart:<b>" are on different hash slots`
	rdb.Rename(ctx, withTenant(t, "cart:{"+a+"}"), withTenant(t, "old:{"+a+"}"))
	rdb.Rename(ctx, withTenant("{"+t+"}", "cart:"+a), withTenant("{"+t+"}", "cart:"+b))
}

// The same choice made in place, by assigning the key again.
func (st *prefixedStore) inPlace(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, a, b string) {
	ka, kb := "cart:"+a, "cart:"+b
	if st.prefix != "" {
		ka = st.prefix + "/" + ka
	}
	if st.prefix != "" {
		kb = st.prefix + "/" + kb
	}
	rdb.Rename(ctx, ka, kb)                              // want `Rename keys "cart:<a>" and "cart:<b>" are on different hash slots`
	c.Do(ctx, c.B().Rename().Key(ka).Newkey(kb).Build()) // want `RENAME keys "cart:<a>" and "cart:<b>" are on different hash slots`

	ta, tb := "cart:{"+a+"}", "old:{"+a+"}"
	if st.prefix != "" {
		ta = st.prefix + "/" + ta
	}
	if st.prefix != "" {
		tb = st.prefix + "/" + tb
	}
	rdb.Rename(ctx, ta, tb)
}

func (st *prefixedStore) familyInPlace(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, ids []string) {
	var ks []string
	for _, id := range ids {
		k := "course:" + id
		if st.prefix != "" {
			k = st.prefix + "/" + k
		}
		ks = append(ks, k)
	}
	rdb.Del(ctx, ks...)                       // want `Del keys "course:<ids\[i\]>" for two different elements of ids are on different hash slots`
	c.Do(ctx, c.B().Del().Key(ks...).Build()) // want `DEL keys "course:<ids\[i\]>" for two different elements of ids are on different hash slots`
}
