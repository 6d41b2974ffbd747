package oneserver

import "github.com/redis/rueidis"

// A rueidis client forced to one node: its transactions are one server's,
// as its MGET and DEL are, wherever it is kept.
type Cache struct{ c rueidis.Client }

func NewCache() (*Cache, error) {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"localhost:6379"}, ForceSingleClient: true})
	if err != nil {
		return nil, err
	}
	return &Cache{c: c}, nil
}

func (k *Cache) SetBoth() {
	k.c.DoMulti(ctx, k.c.B().Multi().Build(), k.c.B().Set().Key("a").Value("1").Build(), k.c.B().Set().Key("b").Value("1").Build(), k.c.B().Exec().Build())
	k.c.Do(ctx, k.c.B().Mget().Key("a", "b").Build())
}

func forcedLocal() {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:1"}, ForceSingleClient: true})
	c.DoMulti(ctx, c.B().Multi().Build(), c.B().Set().Key("a").Value("1").Build(), c.B().Set().Key("b").Value("1").Build(), c.B().Exec().Build())
}

// Its twin may find a cluster at its address.
func notForced() {
	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{"a:1"}})
	c.DoMulti(ctx, c.B().Multi().Build(), c.B().Set().Key("a").Value("1").Build(), c.B().Set().Key("b").Value("1").Build(), c.B().Exec().Build()) // want `DoMulti keys "a" \(slot 15495, SET\) and "b" \(slot 3300, SET\) are on different hash slots`
	c.Do(ctx, c.B().Mget().Key("a", "b").Build())                                                                                                 // want `MGET keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}
