// Package lines sends its callers' command lines between MULTI and EXEC:
// each call's lines are its transaction (see linesapp).
package lines

import "github.com/gomodule/redigo/redis"

// ExecTx runs the command lines in one MULTI/EXEC.
func ExecTx(c redis.Conn, cmds [][]any) error { // want ExecTx:`runs MULTI/EXEC\{the lines of p2\} at lines.go:13`
	if err := c.Send("MULTI"); err != nil {
		return err
	}
	for _, cmd := range cmds {
		if err := c.Send(cmd[0].(string), cmd[1:]...); err != nil {
			return err
		}
	}
	_, err := c.Do("EXEC")
	return err
}

// Exec is ExecTx over a variadic of redis.Args.
func Exec(c redis.Conn, cmds ...redis.Args) error { // want Exec:`runs MULTI/EXEC\{the lines of p2\} at lines.go:25`
	c.Send("MULTI")
	for _, cmd := range cmds {
		c.Send(cmd[0].(string), cmd[1:]...)
	}
	_, err := c.Do("EXEC")
	return err
}

// Pipeline sends the lines without MULTI: a pipeline, not a transaction.
func Pipeline(c redis.Conn, cmds ...redis.Args) error {
	for _, cmd := range cmds {
		c.Send(cmd[0].(string), cmd[1:]...)
	}
	return c.Flush()
}
