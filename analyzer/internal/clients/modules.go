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
}

func IsClientCode(path string) bool {
	path = strings.TrimSuffix(path, "_test") // the client's own tests too
	for _, m := range clientModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// IsClientMethod reports a method (or function) of a client library's own
// code.
func IsClientMethod(m *types.Func) bool {
	return m != nil && m.Pkg() != nil && IsClientCode(m.Pkg().Path())
}
