package lobby

import (
	"fmt"

	"example.com/arena/internal/ids"
)

// Keys builds the lobby and party keys. Prefix comes from configuration.
type Keys struct {
	Prefix string
}

func (k Keys) lobby(id ids.LobbyID) string         { return k.Prefix + ":lobby:{" + id.String() + "}" }
func (k Keys) lobbyMembers(id ids.LobbyID) string  { return k.lobby(id) + ":members" }
func (k Keys) lobbySettings(id ids.LobbyID) string { return k.lobby(id) + ":settings" }
func (k Keys) lobbyHost(id ids.LobbyID) string     { return k.lobby(id) + ":host" }
func (k Keys) lobbyMode(id ids.LobbyID) string     { return k.lobby(id) + ":mode" }
func (k Keys) lobbyMap(id ids.LobbyID) string      { return fmt.Sprintf("%s:lobby:{%s:map", k.Prefix, id) }
func (k Keys) lobbyMapName(id ids.LobbyID) string  { return k.lobby(id) + ":map" }
func (k Keys) lobbyEvents(id ids.LobbyID) string   { return k.lobby(id) + ":events" }
func (k Keys) lobbyChat(id ids.LobbyID) string     { return k.lobby(id) + ":chat" }

func (k Keys) party(id ids.PartyID) string        { return k.Prefix + ":party:{" + id.String() + "}" }
func (k Keys) partyMembers(id ids.PartyID) string { return k.party(id) + ":members" }
func (k Keys) partyEvents(id ids.PartyID) string  { return k.party(id) + ":events" }
func (k Keys) partyInvites(id ids.PartyID) string { return k.party(id) + ":invites:accepted" }

func (k Keys) playerLobby(p ids.PlayerID) string {
	return k.Prefix + ":player:" + p.String() + ":lobby"
}
