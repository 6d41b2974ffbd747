package clients

import (
	"go/types"
	"strings"
)

// clientModules are the path prefixes of the clients' own code, which is
// not checked: a package that imports one of them calls a client.
var clientModules = []string{
	"github.com/redis/go-redis/v9",
	"github.com/go-redis/redis",
	"github.com/gomodule/redigo",
	"github.com/garyburd/redigo", // redigo's path before v2.0.0, the same API
	"github.com/mna/redisc",
	"github.com/redis/rueidis",
	"github.com/valkey-io/valkey-go",
	"github.com/valkey-io/valkey-glide/go",
}

// clientUsers are the modules under a client's path that only use it, as
// any application does: a probabilistic filter, a lock, a cache-aside, an
// object mapper. Their commands are checked (rueidisprob's filter once sent
// its name and name+":c" in one EVAL).
var clientUsers = []string{
	"github.com/redis/rueidis/rueidisprob", "github.com/redis/rueidis/rueidislock", "github.com/redis/rueidis/rueidisaside",
	"github.com/redis/rueidis/rueidislimiter", "github.com/redis/rueidis/om",
	"github.com/valkey-io/valkey-go/valkeyprob", "github.com/valkey-io/valkey-go/valkeylock", "github.com/valkey-io/valkey-go/valkeyaside",
	"github.com/valkey-io/valkey-go/valkeylimiter", "github.com/valkey-io/valkey-go/om",
}

func IsClientCode(path string) bool {
	path = strings.TrimSuffix(path, "_test") // the client's own tests too
	if IsAdapter(path) {
		return false // read through its own code, as a module's wrappers are (see Adapters)
	}
	for _, m := range clientUsers {
		if InModule(path, m) {
			return false
		}
	}
	for _, m := range clientModules {
		if InModule(path, m) {
			return true
		}
	}
	return false
}

// InModule reports whether the package path is module's, or one of its
// packages. It does not allocate: it runs for every call the package makes.
func InModule(path, module string) bool {
	return strings.HasPrefix(path, module) && (len(path) == len(module) || path[len(module)] == '/')
}

// IsClientMethod reports a method (or function) of a client library's own
// code.
func IsClientMethod(m *types.Func) bool {
	return m != nil && m.Pkg() != nil && IsClientCode(m.Pkg().Path())
}
