package keymodel

import "slices"

// A QueuedCommand is one keyed command of a transaction.
type QueuedCommand struct {
	Method string
	Keys   []Arg
	// Worlds are the keys read again in each world that decides them (a
	// branch an option decides, or one writer of a field), by name.
	Worlds []WorldKeys
}

// A WorldKeys is a command's keys read in one world.
type WorldKeys struct {
	Name string // for messages: "when useHashTag is false, its default"
	Keys []Arg
	// Setting names the option the world holds at its default when code
	// out of sight may set it (see eval.World.Setting).
	Setting string
}

// InWorld is the commands with the keys they hold in the world of that
// name: a command that world does not decide keeps its keys.
func InWorld(cmds []QueuedCommand, name string) []QueuedCommand {
	out := make([]QueuedCommand, len(cmds))
	for i, c := range cmds {
		out[i] = QueuedCommand{Method: c.Method, Keys: c.Keys}
		for _, w := range c.Worlds {
			if w.Name == name {
				out[i].Keys = w.Keys
			}
		}
	}
	return out
}

// WorldNames are the worlds that decide some of the commands' keys.
func WorldNames(cmds []QueuedCommand) []string {
	var out []string
	for _, c := range cmds {
		for _, w := range c.Worlds {
			if !slices.Contains(out, w.Name) {
				out = append(out, w.Name)
			}
		}
	}
	return out
}

// WorldSetting is the Setting of the world of that name (see WorldKeys).
func WorldSetting(cmds []QueuedCommand, name string) string {
	for _, c := range cmds {
		for _, w := range c.Worlds {
			if w.Name == name {
				return w.Setting
			}
		}
	}
	return ""
}
