package inventory

import "example.com/arena/internal/ids"

// account scopes every per-player key to the player's hash tag.
type account ids.PlayerID

func (a account) tag() string          { return "player:{" + string(a) + "}" }
func (a account) inventory() string    { return a.tag() + ":inv" }
func (a account) wallet() string       { return a.tag() + ":wallet" }
func (a account) ledger() string       { return a.tag() + ":ledger" }
func (a account) loadout() string      { return a.tag() + ":loadout" }
func (a account) giftsPending() string { return a.tag() + ":gifts:pending" }
func (a account) giftsClaimed() string { return a.tag() + ":gifts:claimed" }
func (a account) keys() []string       { return []string{a.inventory(), a.wallet(), a.ledger(), a.loadout()} }

// Pre-cluster layout, still read by the account-deletion job.
func legacyInventory(p ids.PlayerID) string { return "inv:" + string(p) }
func legacyWallet(p ids.PlayerID) string    { return "wallet:" + string(p) }

// economyAudit is the global audit stream the fraud team tails.
const economyAudit = "economy:audit"

const (
	shopNext   = "shop:rotation:next"
	shopLive   = "shop:rotation:live"
	shopNextV2 = "shop:{rotation}:next"
	shopLiveV2 = "shop:{rotation}:live"
)
