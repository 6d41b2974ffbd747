// Package ids holds the identifier types shared by every arena service.
package ids

// PlayerID identifies a player account.
type PlayerID string

// GuildID identifies a guild.
type GuildID string

// LobbyID identifies a pre-game lobby.
type LobbyID string

// PartyID identifies a party (a group of friends queueing together).
type PartyID string

// RoomID identifies a chat room.
type RoomID string

// TicketID identifies a matchmaking ticket.
type TicketID string

// MatchID identifies a match produced by the matchmaker.
type MatchID string

// Season is a competitive season number.
type Season int

func (p PlayerID) String() string { return string(p) }
func (g GuildID) String() string  { return string(g) }
func (l LobbyID) String() string  { return string(l) }
func (p PartyID) String() string  { return string(p) }
func (r RoomID) String() string   { return string(r) }
func (t TicketID) String() string { return string(t) }
func (m MatchID) String() string  { return string(m) }
