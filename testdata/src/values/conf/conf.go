// Package conf is a service's configuration, filled from a file and the
// environment by a configuration library.
package conf

type Store struct {
	Host        string `yaml:"Host"`
	RedisPrefix string `yaml:"RedisPrefix" default:"{a}"` // one slot in a cluster
	LockPrefix  string `yaml:"LockPrefix" default:"lock:"`
	Namespace   string `yaml:"Namespace"`
	Plain       string // no struct tag: not configuration as far as the code says
}

type Config struct {
	Store Store `yaml:"Store"`
}

var Global Config

// Load reads the configuration.
func Load() *Config { return &Global }
