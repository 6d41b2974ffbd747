// Package linesapp sends command lines through lines' transactions.
package linesapp

import (
	"github.com/gomodule/redigo/redis"

	"tx/lines"
)

func hold(c redis.Conn, rider, trip string, amount int64) {
	lines.ExecTx(c, [][]any{
		{"INCRBY", "wallet:" + rider + ":held", amount},
		{"HSET", "hold:" + trip, "rider", rider}, // want `^MULTI/EXEC keys "wallet:<rider>:held" \(INCRBY\) and "hold:<trip>" \(HSET\) are on different hash slots for all but about 1 in 16384 pairs of values of rider and trip \(assuming rider and trip hold no brace\); in lines.ExecTx \(lines.go:13\), the server refuses the transaction at EXEC`
	})
	lines.ExecTx(c, [][]any{
		{"INCRBY", "wallet:{" + rider + "}:held", amount},
		{"HSET", "wallet:{" + rider + "}:holds", trip, amount},
	})
}

func join(c redis.Conn, guild, player string) {
	lines.Exec(c,
		redis.Args{"SADD", "guild:" + guild + ":members", player},
		redis.Args{"SET", "player:" + player + ":guild", guild}, // want `^MULTI/EXEC keys "guild:<guild>:members" \(SADD\) and "player:<player>:guild" \(SET\) are on different hash slots`
	)
	lines.Exec(c,
		redis.Args{"SADD", "guild:{" + guild + "}:members", player},
		redis.Args{"HSET", "guild:{" + guild + "}:joined", player, 1},
	)
	lines.Pipeline(c, // a pipeline: each command on its own
		redis.Args{"SADD", "guild:" + guild + ":members", player},
		redis.Args{"SET", "player:" + player + ":guild", guild},
	)
}
