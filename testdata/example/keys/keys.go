// Package keys builds the shop's keys, as real services do: in functions of
// their own, in a package of their own. crossslot reads them through facts.
package keys

import (
	"fmt"
	"strconv"
	"strings"
)

// Namespace prefixes the keys of the shop's repositories.
const Namespace = "shop:"

func Cart(id int) string   { return fmt.Sprintf("cart:%d", id) }
func Orders(id int) string { return "orders:" + strconv.Itoa(id) }

// Profile and Settings share the user's id as a hash tag.
func Profile(id int) string  { return fmt.Sprintf("user:{%d}:profile", id) }
func Settings(id int) string { return fmt.Sprintf("user:{%d}:settings", id) }

// Join builds a key from its parts.
func Join(parts ...string) string { return strings.Join(parts, ":") }
