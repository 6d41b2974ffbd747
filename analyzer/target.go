package analyzer

import (
	"fmt"
	"strconv"
	"strings"
)

// A Target is the server a cluster runs, for the database check: Redis and
// Valkey before 9 have database 0 only in cluster mode; Valkey 9 has as many
// as its cluster-databases setting (1 unless configured), and accepts
// SELECT, MOVE and COPY ... DB of those.
type Target struct {
	Name      string // "redis", "valkey" or "valkey9"
	Databases int    // the databases a cluster has: 1, or Valkey 9's cluster-databases
}

// The flag's values.
const targetUsage = "the server the cluster runs, for the database check: `redis` (the default) or valkey (before 9), with database 0 only; valkey9:N, Valkey 9 with cluster-databases N, which accepts SELECT, MOVE and COPY ... DB of databases 0 to N-1"

func (t *Target) String() string {
	switch {
	case t.Name == "":
		return "redis"
	case t.Name == "valkey9":
		return "valkey9:" + strconv.Itoa(t.Databases)
	}
	return t.Name
}

func (t *Target) Set(s string) error {
	name, n, hasN := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	switch {
	case (name == "redis" || name == "valkey") && !hasN:
		*t = Target{Name: name, Databases: 1}
		return nil
	case name == "valkey9" && !hasN:
		*t = Target{Name: name, Databases: 1} // cluster-databases is 1 unless configured
		return nil
	case name == "valkey9":
		d, err := strconv.Atoi(n)
		if err == nil && d >= 1 {
			*t = Target{Name: name, Databases: d}
			return nil
		}
	}
	return fmt.Errorf("%q is not a target; want redis, valkey, or valkey9:N with N the cluster-databases setting (1 or more)", s)
}

// databases is how many databases the target's cluster has.
func (t *Target) databases() int {
	if t.Databases < 1 {
		return 1
	}
	return t.Databases
}
