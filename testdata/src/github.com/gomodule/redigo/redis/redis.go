// Package redis stubs github.com/gomodule/redigo/redis for the analyzer's
// tests, with the real package's signatures.
package redis

import (
	"context"
	"time"
)

type Conn interface {
	Close() error
	Err() error
	Do(commandName string, args ...interface{}) (reply interface{}, err error)
	Send(commandName string, args ...interface{}) error
	Flush() error
	Receive() (reply interface{}, err error)
}

type ConnWithContext interface {
	Conn
	DoContext(ctx context.Context, commandName string, args ...interface{}) (reply interface{}, err error)
}

type ConnWithTimeout interface {
	Conn
	DoWithTimeout(timeout time.Duration, commandName string, args ...interface{}) (reply interface{}, err error)
}

type DialOption struct{}

func DialDatabase(db int) DialOption { return DialOption{} }

func DialConnectTimeout(d time.Duration) DialOption { return DialOption{} }

func Dial(network, address string, options ...DialOption) (Conn, error) { return nil, nil }

func DialContext(ctx context.Context, network, address string, options ...DialOption) (Conn, error) {
	return nil, nil
}

func DialURL(rawurl string, options ...DialOption) (Conn, error) { return nil, nil }

type Pool struct {
	Dial        func() (Conn, error)
	DialContext func(ctx context.Context) (Conn, error)
	MaxIdle     int
}

func NewPool(newFn func() (Conn, error), maxIdle int) *Pool { return &Pool{Dial: newFn, MaxIdle: maxIdle} }

func (p *Pool) Get() Conn { return nil }

func (p *Pool) GetContext(ctx context.Context) (Conn, error) { return nil, nil }

type Script struct{ keyCount int }

func NewScript(keyCount int, src string) *Script { return &Script{keyCount: keyCount} }

func (s *Script) Do(c Conn, keysAndArgs ...interface{}) (interface{}, error) { return nil, nil }
func (s *Script) DoContext(ctx context.Context, c Conn, keysAndArgs ...interface{}) (interface{}, error) {
	return nil, nil
}
func (s *Script) Send(c Conn, keysAndArgs ...interface{}) error     { return nil }
func (s *Script) SendHash(c Conn, keysAndArgs ...interface{}) error { return nil }

// Args is a helper for building command arguments.
type Args []interface{}

// Add returns the result of appending value to args.
func (args Args) Add(value ...interface{}) Args { return append(args, value...) }

// AddFlat returns the result of appending v flattened: a slice's
// elements, a map's keys and values, a struct's field names and values.
func (args Args) AddFlat(v interface{}) Args { return append(args, v) }
