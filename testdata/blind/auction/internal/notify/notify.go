// Package notify fans out outbid and lot-closing notifications and listens
// for expiring auction clocks.
package notify

import (
	"context"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// Message is a notification delivered to a connected client.
type Message struct {
	Channel string
	Payload string
}

// Hub delivers notifications over sharded pub/sub.
type Hub struct {
	rdb *redis.ClusterClient
}

func NewHub(rdb *redis.ClusterClient) *Hub { return &Hub{rdb: rdb} }

// Outbid publishes an outbid notice on the lot's channel.
func (h *Hub) Outbid(ctx context.Context, id keys.LotID, payload string) error {
	return h.rdb.SPublish(ctx, id.Channel("outbid"), payload).Err()
}

// Closed publishes the hammer on the lot's channel.
func (h *Hub) Closed(ctx context.Context, id keys.LotID, payload string) error {
	return h.rdb.SPublish(ctx, id.Channel("closed"), payload).Err()
}

// Direct sends to one bidder's inbox channel.
func (h *Hub) Direct(ctx context.Context, b keys.BidderID, payload string) error {
	return h.rdb.SPublish(ctx, b.Inbox(), payload).Err()
}

func pump(ctx context.Context, ps *redis.PubSub, out chan<- Message) {
	defer close(out)
	defer ps.Close()
	ch := ps.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-ch:
			if !ok {
				return
			}
			select {
			case out <- Message{Channel: m.Channel, Payload: m.Payload}:
			case <-ctx.Done():
				return
			}
		}
	}
}

// WatchLot streams the outbid and closing notices of one lot to the page.
func (h *Hub) WatchLot(ctx context.Context, id keys.LotID) (<-chan Message, error) {
	// case B35: none
	ps := h.rdb.SSubscribe(ctx, id.Channel("outbid"), id.Channel("closed"))
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	out := make(chan Message, 16)
	go pump(ctx, ps, out)
	return out, nil
}

// WatchLotAndInbox streams a lot's outbid notices together with the
// bidder's own inbox on one connection.
func (h *Hub) WatchLotAndInbox(ctx context.Context, id keys.LotID, b keys.BidderID) (<-chan Message, error) {
	// case B36: shardedpubsub
	ps := h.rdb.SSubscribe(ctx, id.Channel("outbid"), b.Inbox())
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return nil, err
	}
	out := make(chan Message, 16)
	go pump(ctx, ps, out)
	return out, nil
}

// Expiry listens for expired clock keys.
type Expiry struct {
	rdb *redis.ClusterClient
}

func NewExpiry(rdb *redis.ClusterClient) *Expiry { return &Expiry{rdb: rdb} }

const expiredPattern = "__keyevent@0__:expired"

func keyOnly(out chan<- string) func(m *redis.Message) {
	return func(m *redis.Message) {
		if strings.HasPrefix(m.Payload, "lot:") {
			out <- m.Payload
		}
	}
}

// Listen delivers the names of expired lot keys until ctx is done.
func (e *Expiry) Listen(ctx context.Context, out chan<- string) error {
	// case B37: keyspace
	ps := e.rdb.PSubscribe(ctx, expiredPattern)
	if _, err := ps.Receive(ctx); err != nil {
		ps.Close()
		return err
	}
	deliver := keyOnly(out)
	go func() {
		defer ps.Close()
		ch := ps.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-ch:
				if !ok {
					return
				}
				deliver(m)
			}
		}
	}()
	return nil
}

// ListenAllShards subscribes on every master, since each node only
// announces the expirations of its own keys.
func (e *Expiry) ListenAllShards(ctx context.Context, out chan<- string) error {
	// case B38: none
	var mu sync.Mutex
	var subs []*redis.PubSub
	err := e.rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		ps := m.PSubscribe(ctx, expiredPattern)
		if _, err := ps.Receive(ctx); err != nil {
			ps.Close()
			return err
		}
		mu.Lock()
		subs = append(subs, ps)
		mu.Unlock()
		return nil
	})
	if err != nil {
		for _, ps := range subs {
			ps.Close()
		}
		return err
	}
	deliver := keyOnly(out)
	for _, ps := range subs {
		go func() {
			defer ps.Close()
			ch := ps.Channel()
			for {
				select {
				case <-ctx.Done():
					return
				case m, ok := <-ch:
					if !ok {
						return
					}
					deliver(m)
				}
			}
		}()
	}
	return nil
}
