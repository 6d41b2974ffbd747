// Package keys builds a billing service's keys as real code does: in
// functions of their own, in a package of their own. Its builders reach the
// packages that import it as facts.
package keys

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Namespace prefixes every key of the service.
const Namespace = "billing:"

func Account(id int) string { return fmt.Sprintf("account:%d", id) } // want Account:`key "account:"\+%d\(p1\)`

func Invoice(id int) string { return "invoice:" + strconv.Itoa(id) } // want Invoice:`key "invoice:"\+%d\(p1\)`

func Payment(id int) string { return "payment:" + strconv.Itoa(id) } // want Payment:`key "payment:"\+%d\(p1\)`

func NS(s string) string { return Namespace + s } // want NS:`key "billing:"\+p1`

// Profile and Settings share the user's tag.
func Profile(id int) string { return fmt.Sprintf("user:{%d}:profile", id) } // want Profile:`key "user:\{"\+%d\(p1\)\+"\}:profile"`

func Settings(id int) string { return fmt.Sprintf("user:{%d}:settings", id) } // want Settings:`key "user:\{"\+%d\(p1\)\+"\}:settings"`

// Replica keys live beside the primary's, or not: two returns, two
// alternatives.
func Shard(primary bool, id int) string { // want Shard:`key "p:"\+%d\(p2\) \| "r:"\+%d\(p2\)`
	if primary {
		return "p:" + strconv.Itoa(id)
	}
	return "r:" + strconv.Itoa(id)
}

// FromEnv builds nothing a caller can read: no fact.
func FromEnv() string { return os.Getenv("KEY") }

// Through another builder of the package.
func Lock(id int) string { return NS("lock:" + strconv.Itoa(id)) } // want Lock:`key "billing:lock:"\+%d\(p1\)`

// Join builds a key from parts, as variadic builders do.
func Join(parts ...string) string { return strings.Join(parts, ":") } // want Join:`key join\(p1, ":"\)`

// Cat concatenates parts in a loop.
func Cat(parts ...string) string { // want Cat:`key "billing:"\+join\(p1, ""\)`
	k := Namespace
	for _, p := range parts {
		k += p
	}
	return k
}

// Family is every key of one order: a fixed list.
func Family(id int) []string { // want Family:`keys \["order:"\+%d\(p1\)\+":items", "order:"\+%d\(p1\)\+":total"\]`
	return []string{fmt.Sprintf("order:%d:items", id), fmt.Sprintf("order:%d:total", id)}
}

// ID is any identifier a key can be built from.
type ID interface{ ~int | ~int64 }

// Generic is summarized once, on its origin.
func Generic[T ID](prefix string, id T) string { return prefix + ":" + fmt.Sprint(id) } // want Generic:`key p1\+":"\+%v\(p2\)`

// Tagged is a generic builder whose result is known for a constant prefix.
func Tagged[T any](prefix string, _ T) string { return "{" + prefix + "}:x" } // want Tagged:`key "\{"\+p1\+"\}:x"`
