// Package config is a stub of GLIDE's client configuration.
package config

type NodeAddress struct {
	Host string
	Port int
}

type ClusterClientConfiguration struct{ db int }

func NewClusterClientConfiguration() *ClusterClientConfiguration {
	return &ClusterClientConfiguration{}
}
func (c *ClusterClientConfiguration) WithAddress(a *NodeAddress) *ClusterClientConfiguration {
	return c
}
func (c *ClusterClientConfiguration) WithDatabaseId(id int) *ClusterClientConfiguration {
	c.db = id
	return c
}

type ClientConfiguration struct{ db int }

func NewClientConfiguration() *ClientConfiguration                             { return &ClientConfiguration{} }
func (c *ClientConfiguration) WithAddress(a *NodeAddress) *ClientConfiguration { return c }
func (c *ClientConfiguration) WithDatabaseId(id int) *ClientConfiguration {
	c.db = id
	return c
}

type PubSubClusterChannelMode int

const (
	ExactClusterChannelMode PubSubClusterChannelMode = iota
	PatternClusterChannelMode
	ShardedClusterChannelMode
)

type ClusterSubscriptionConfig struct{ subs map[uint32][]string }

func NewClusterSubscriptionConfig() *ClusterSubscriptionConfig { return &ClusterSubscriptionConfig{} }

func (c *ClusterSubscriptionConfig) WithSubscription(mode PubSubClusterChannelMode, channelOrPattern string) *ClusterSubscriptionConfig {
	return c
}

func (c *ClusterClientConfiguration) WithSubscriptionConfig(s *ClusterSubscriptionConfig) *ClusterClientConfiguration {
	return c
}
