package values

import (
	"context"
	"strconv"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A function held in a field the package fills (a generic repository's
// key function) is read as a call of each function it holds.

type keyedRepo[K any] struct {
	rdb *goredis.ClusterClient
	rc  rueidis.Client
	key func(K) string
}

func (r *keyedRepo[K]) getMany(ctx context.Context, ids ...K) {
	ks := make([]string, 0, len(ids))
	for _, id := range ids {
		ks = append(ks, r.key(id))
	}
	r.rdb.MGet(ctx, ks...) // want `MGet keys "(user|acct):<ids\[i\]>" for two different elements of ids are on different hash slots`
}

func (r *keyedRepo[K]) pair(ctx context.Context, a, b K) {
	r.rc.Do(ctx, r.rc.B().Mget().Key(r.key(a), r.key(b)).Build()) // want `MGET keys "(user|acct):<a>" and "(user|acct):<b>" are on different hash slots`
}

func newUsers(rdb *goredis.ClusterClient) *keyedRepo[int] {
	return &keyedRepo[int]{rdb: rdb, key: func(id int) string { return "user:" + strconv.Itoa(id) }}
}

func newAccounts(rdb *goredis.ClusterClient) *keyedRepo[int] {
	return &keyedRepo[int]{rdb: rdb, key: acctKey}
}

func acctKey(id int) string { return "acct:" + strconv.Itoa(id) }

// A key function its callers give: theirs to judge.
type givenRepo[K any] struct {
	rdb *goredis.ClusterClient
	key func(K) string
}

func NewGivenRepo[K any](rdb *goredis.ClusterClient, key func(K) string) *givenRepo[K] {
	return &givenRepo[K]{rdb: rdb, key: key}
}

func (r *givenRepo[K]) pair(ctx context.Context, a, b K) {
	r.rdb.MGet(ctx, r.key(a), r.key(b))
}

// One tag per tenant: the function's keys share the tenant's slot.
type tenantRepo struct {
	rdb *goredis.ClusterClient
	key func(string) string
}

func newTenantRepo(rdb *goredis.ClusterClient, tenant string) *tenantRepo {
	return &tenantRepo{rdb: rdb, key: func(id string) string { return "t:{" + tenant + "}:" + id }}
}

func (r *tenantRepo) pair(ctx context.Context, a, b string) {
	r.rdb.MGet(ctx, r.key(a), r.key(b))
}
