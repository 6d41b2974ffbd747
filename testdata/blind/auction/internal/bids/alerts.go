package bids

import (
	"context"

	"github.com/redis/rueidis"

	"example.com/auction/internal/keys"
)

// Alerts pushes outbid alerts to websocket sessions over sharded pub/sub.
type Alerts struct {
	rc rueidis.Client
}

func NewAlerts(rc rueidis.Client) *Alerts { return &Alerts{rc: rc} }

// Publish sends one alert on a sharded channel.
func (a *Alerts) Publish(ctx context.Context, channel, msg string) error {
	return a.rc.Do(ctx, a.rc.B().Spublish().Channel(channel).Message(msg).Build()).Error()
}

// FollowLot delivers outbid and closing alerts of one lot until ctx ends.
func (a *Alerts) FollowLot(ctx context.Context, id keys.LotID, fn func(channel, msg string)) error {
	// case B63: none
	return a.rc.Receive(ctx, a.rc.B().Ssubscribe().Channel(id.Channel("outbid"), id.Channel("closed")).Build(),
		func(m rueidis.PubSubMessage) { fn(m.Channel, m.Message) })
}

// FollowLotForBidder also listens on the bidder's inbox on the same receive.
func (a *Alerts) FollowLotForBidder(ctx context.Context, id keys.LotID, b keys.BidderID, fn func(channel, msg string)) error {
	// case B62: shardedpubsub
	return a.rc.Receive(ctx, a.rc.B().Ssubscribe().Channel(id.Channel("outbid"), b.Inbox()).Build(),
		func(m rueidis.PubSubMessage) { fn(m.Channel, m.Message) })
}
