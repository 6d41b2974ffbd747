// Package keys builds key names for package summaries, which reads them
// through the facts its summaries export.
package keys

import (
	"fmt"
	"strconv"
)

func Profile(id int64) string { // want Profile:`key "user:"\+%d\(p1\)\+":profile"`
	return "user:" + strconv.FormatInt(id, 10) + ":profile"
}

func Tagged(id string) string { // want Tagged:`key "user:\{"\+p1\+"\}:settings"`
	return fmt.Sprintf("user:{%s}:settings", id)
}

func Either(id string, tagged bool) string { // want Either:`key "order:\{"\+p1\+"\}" \| "order:"\+p1`
	if tagged {
		return "order:{" + id + "}"
	}
	return "order:" + id
}

func All(ids []string) []string { // want All:`keys "item:"\+p1\[i\] for each element of p1`
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, "item:"+id)
	}
	return out
}

func noKey(n int) int { return n + 1 }
