// Package shop is a small shop service over Redis Cluster: user profiles and
// settings, orders, sessions and a global activity feed. Its keys are built
// by the functions below, as a team would write them; crossslot keys lists
// one family per builder.
package shop

import "fmt"

// ProfileKey holds a user's profile hash. The user's id is the hash tag, so
// the profile and the settings of one user share a slot.
func ProfileKey(id string) string { return "user:{" + id + "}:profile" }

// SettingsKey holds a user's settings, a JSON string that expires.
func SettingsKey(id string) string { return "user:{" + id + "}:settings" }

// OrderKey holds the n-th order of a user, tagged by the user.
func OrderKey(user string, n int) string { return fmt.Sprintf("order:{%s}:%d", user, n) }

// SessionKey holds a login session. Sessions are looked up one at a time by
// token, so they carry no tag.
func SessionKey(token string) string { return "session:" + token }

// FeedKey holds one feed's list of entries. Every feed shares the constant
// tag {global}: all of them live on one slot (a hot slot).
func FeedKey(id string) string { return "feed:{global}:" + id }
