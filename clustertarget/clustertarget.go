// Package clustertarget says what runs the cluster a program talks to: the server
// (Redis or Valkey) and its release line, how many databases it has, and
// whether a proxy fronts it. What a cluster refuses depends on it:
//
//   - SORT's BY and GET patterns: Redis before 7.4 and Valkey before 8.0
//     refuse every BY pattern (one holding '*') and every GET; from those
//     releases a pattern whose hash tag maps to the sorted key's slot is
//     accepted (Redis's and Valkey's patternHashSlot), and GET "#" from
//     Redis 7.4.2 and Valkey 8.1;
//   - databases: Valkey 9's cluster-databases setting gives a cluster
//     databases 0 to N-1, every other target database 0 only;
//   - CLUSTERSCAN, Valkey 9.1's scan of the whole cluster;
//   - a proxy (Azure Managed Redis's Enterprise clustering policy, Redis
//     Software's own clustering) behind one endpoint, which splits DEL,
//     MGET, MSET, EXISTS, UNLINK and TOUCH by slot, and refuses every other
//     multi-key command, transaction and script across slots.
//
// A Target is written as the flag -crossslot.target, the golangci-lint
// setting target, the guards' option and the target line of crossslot.conf
// take it: SERVER[:VERSION][:dbN], or a proxy's name[:VERSION]. It imports
// nothing of the analysis, so that the run-time guards share it.
package clustertarget

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Target is what runs the cluster. The zero Target is Latest.
type Target struct {
	// Server is "redis" or "valkey"; "" is Latest: the rules the newest
	// releases of both share.
	Server string
	// Major and Minor are the release line; Patch is -1 for the line's
	// newest patch release.
	Major, Minor, Patch int
	// Databases is how many databases the cluster has: 1, or Valkey 9's
	// cluster-databases.
	Databases int
	// Proxy is "azure-enterprise" or "redis-software" when a proxy fronts
	// the cluster, "" for the OSS cluster protocol.
	Proxy string
}

// Latest is the default: the rules the newest releases of Redis (8.4) and
// Valkey (9.1) share, with database 0 only and no proxy. What a new service
// most likely runs, and, for every rule this package has, the stricter of
// the two where they differ.
var Latest = Target{Patch: -1, Databases: 1}

// The release lines a target may name, oldest first, and what a server's
// name alone means (its newest line).
var lines = map[string][][2]int{
	"redis":  {{7, 0}, {7, 2}, {7, 4}, {8, 0}, {8, 2}, {8, 4}},
	"valkey": {{7, 2}, {8, 0}, {8, 1}, {9, 0}, {9, 1}},
}

// proxies are the proxies a target may name, with the Redis line they run
// when the target names none.
var proxies = map[string][2]int{
	"azure-enterprise": {7, 4},
	"redis-software":   {8, 0},
}

// Accepted lists the values Parse takes, for error messages and usage.
const Accepted = "latest (the default); redis[:7.0|7.2|7.4|8.0|8.2|8.4]; valkey[:7.2|8.0|8.1|9.0|9.1] with :dbN for Valkey 9's cluster-databases N; " +
	"azure-enterprise or redis-software (a proxy in front of the cluster), [:VERSION] of Redis; a version may end in .PATCH; valkey9:N is valkey:9.0:dbN"

// Parse reads a target: latest; SERVER[:VERSION][:dbN]; PROXY[:VERSION];
// or the older spellings redis, valkey, valkey9 and valkey9:N.
func Parse(s string) (Target, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (Target, error) {
		return Target{}, fmt.Errorf("%q is not a target: %s; want %s", s, why, Accepted)
	}
	parts := strings.Split(in, ":")
	name := parts[0]
	switch {
	case in == "" || in == "latest":
		return Latest, nil
	case name == "valkey9": // valkey9 and valkey9:N, before versions were spelled
		t := Target{Server: "valkey", Major: 9, Minor: 0, Patch: -1, Databases: 1}
		if len(parts) > 2 {
			return bad("valkey9 takes one :N")
		}
		if len(parts) == 2 {
			n, err := strconv.Atoi(parts[1])
			if err != nil || n < 1 {
				return bad("the cluster-databases N of valkey9:N is a number, 1 or more")
			}
			t.Databases = n
		}
		return t, nil
	}
	t := Target{Server: name, Patch: -1, Databases: 1}
	if line, ok := proxies[name]; ok {
		t.Server, t.Proxy, t.Major, t.Minor = "redis", name, line[0], line[1]
	} else if known := lines[name]; known != nil {
		newest := known[len(known)-1]
		t.Major, t.Minor = newest[0], newest[1]
	} else {
		return bad("unknown server " + strconv.Quote(name))
	}
	rest := parts[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "db") {
		if err := t.setVersion(rest[0]); err != nil {
			return bad(err.Error())
		}
		rest = rest[1:]
	}
	if len(rest) > 0 {
		n, err := strconv.Atoi(strings.TrimPrefix(rest[0], "db"))
		switch {
		case !strings.HasPrefix(rest[0], "db") || err != nil || n < 1:
			return bad("the databases are :dbN, N the cluster-databases setting (1 or more)")
		case n > 1 && (t.Server != "valkey" || t.Major < 9):
			return bad("only Valkey 9 and later have databases other than 0 in cluster mode")
		}
		t.Databases = n
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return bad("too many parts")
	}
	return t, nil
}

// setVersion reads MAJOR[.MINOR[.PATCH]] of a known release line; a major
// alone is its newest line.
func (t *Target) setVersion(v string) error {
	nums := strings.Split(v, ".")
	var n [3]int
	if len(nums) > 3 {
		return fmt.Errorf("version %q is MAJOR.MINOR[.PATCH]", v)
	}
	for i, s := range nums {
		x, err := strconv.Atoi(s)
		if err != nil || x < 0 {
			return fmt.Errorf("version %q is MAJOR.MINOR[.PATCH]", v)
		}
		n[i] = x
	}
	known := lines[t.Server]
	found := false
	for _, l := range known {
		if l[0] == n[0] && (len(nums) == 1 || l[1] == n[1]) {
			t.Major, t.Minor, found = l[0], l[1], true // a major alone: its newest line, the last matched
		}
	}
	if !found {
		var names []string
		for _, l := range known {
			names = append(names, fmt.Sprintf("%d.%d", l[0], l[1]))
		}
		older := ""
		if len(known) > 0 && (n[0] < known[0][0] || n[0] == known[0][0] && n[1] < known[0][1]) {
			// Releases before the oldest line checked live: its rules are
			// the nearest (every SORT pattern refused, database 0 only),
			// but not checked against those releases.
			older = fmt.Sprintf("; for an older %s, use %s:%d.%d, the oldest line whose rules were checked on a live cluster", t.Server, t.Server, known[0][0], known[0][1])
		}
		return fmt.Errorf("%s has no release line %s (known: %s)%s", t.Server, v, strings.Join(names, ", "), older)
	}
	t.Patch = -1
	if len(nums) == 3 {
		t.Patch = n[2]
	}
	return nil
}

// String writes the target as Parse reads it.
func (t Target) String() string {
	if t.Server == "" {
		return "latest"
	}
	s := t.Server
	if t.Proxy != "" {
		s = t.Proxy
	}
	s += fmt.Sprintf(":%d.%d", t.Major, t.Minor)
	if t.Patch >= 0 {
		s += "." + strconv.Itoa(t.Patch)
	}
	if t.Databases > 1 {
		s += ":db" + strconv.Itoa(t.Databases)
	}
	return s
}

// Name says the target in a message: "Redis 7.0", "Valkey 9.0 with
// cluster-databases 16", "Redis Software's proxy (Redis 8.0)", "the newest
// Redis and Valkey".
func (t Target) Name() string {
	if t.Server == "" {
		return "the newest Redis and Valkey"
	}
	v := fmt.Sprintf("%d.%d", t.Major, t.Minor)
	if t.Patch >= 0 {
		v += "." + strconv.Itoa(t.Patch)
	}
	server := map[string]string{"redis": "Redis", "valkey": "Valkey"}[t.Server] + " " + v
	switch t.Proxy {
	case "azure-enterprise":
		return "Azure Managed Redis's Enterprise clustering (" + server + ")"
	case "redis-software":
		return "Redis Software's clustering (" + server + ")"
	}
	if t.Databases > 1 {
		server += fmt.Sprintf(" with cluster-databases %d", t.Databases)
	}
	return server
}

// atLeast reports whether the target's server is server at line
// major.minor (patch, -1 for any) or later; Latest is both servers' newest.
func (t Target) atLeast(server string, major, minor, patch int) bool {
	if t.Server == "" {
		return true
	}
	if t.Server != server {
		return false
	}
	switch {
	case t.Major != major:
		return t.Major > major
	case t.Minor != minor:
		return t.Minor > minor
	}
	return patch < 0 || t.Patch < 0 || t.Patch >= patch
}

// SortPatternsBySlot reports whether the cluster accepts a SORT BY or GET
// pattern whose slot (its hash tag's, or the whole pattern's when it has no
// wildcard) is the sorted key's: Redis 7.4 and Valkey 8.0 on. Before, every
// BY pattern and every GET is refused.
func (t Target) SortPatternsBySlot() bool {
	return t.atLeast("redis", 7, 4, -1) || t.atLeast("valkey", 8, 0, -1)
}

// SortGetSelf reports whether SORT ... GET "#" (the element itself) is
// accepted whatever the key's slot: Redis 7.4.2 and Valkey 8.1 on. Before,
// with SortPatternsBySlot, "#" is hashed as a key name.
func (t Target) SortGetSelf() bool {
	return t.atLeast("redis", 7, 4, 2) || t.atLeast("valkey", 8, 1, -1)
}

// ClusterScan reports whether the cluster has CLUSTERSCAN, a scan of every
// node's keys from one cursor: Valkey 9.1 on.
func (t Target) ClusterScan() bool { return t.Server == "valkey" && t.atLeast("valkey", 9, 1, -1) }

// DatabaseCount is how many databases the cluster has: 1, or Valkey 9's
// cluster-databases.
func (t Target) DatabaseCount() int {
	if t.Databases < 1 {
		return 1
	}
	return t.Databases
}

// proxySplits are the commands a proxy accepts with keys on any slots,
// outside a transaction: it sends each slot's keys to its shard and joins
// the replies.
var proxySplits = []string{"DEL", "EXISTS", "MGET", "MSET", "TOUCH", "UNLINK"}

// ProxySplits reports whether the target's proxy accepts the command (upper
// case) with keys on several slots outside MULTI ... EXEC.
func (t Target) ProxySplits(name string) bool {
	return t.Proxy != "" && slices.Contains(proxySplits, name)
}

// ProxySplitNames lists the commands a proxy splits, for messages.
func ProxySplitNames() []string { return slices.Clone(proxySplits) }
