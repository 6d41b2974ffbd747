package live

import (
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		url, addr, user, password, shown string
		db                               int
		tls, skip                        bool
	}{
		{url: "redis://127.0.0.1:7000", addr: "127.0.0.1:7000", shown: "redis://127.0.0.1:7000"},
		{url: "redis://cache.internal", addr: "cache.internal:6379", shown: "redis://cache.internal"},
		{url: "rediss://app:s3cret@10.0.0.5:6380/2", addr: "10.0.0.5:6380", user: "app", password: "s3cret", db: 2, tls: true, shown: "rediss://app:xxxxx@10.0.0.5:6380/2"},
		{url: "redis://:pw@h:1", addr: "h:1", password: "pw", shown: "redis://:xxxxx@h:1"},
		{url: "redis://pw@h:1", addr: "h:1", password: "pw", shown: "redis://xxxxx@h:1"},
		{url: "valkey://[::1]:7000", addr: "[::1]:7000", shown: "valkey://[::1]:7000"},
		{url: "valkeys://h?skip_verify=true", addr: "h:6379", tls: true, skip: true, shown: "valkeys://h?skip_verify=true"},
	} {
		got, err := ParseURL(c.url)
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if got.Addr != c.addr || got.Opts.User != c.user || got.Opts.Password != c.password || got.Opts.DB != c.db ||
			(got.Opts.TLS != nil) != c.tls || c.tls && got.Opts.TLS.InsecureSkipVerify != c.skip || got.URL != c.shown {
			t.Errorf("%s: %+v (shown %s)", c.url, got.Opts, got.URL)
		}
	}
	for url, want := range map[string]string{
		"127.0.0.1:7000":            "not a server URL",
		"http://h:1":                `scheme "http"`,
		"redis://h:99999":           "not a port number",
		"redis://h:1/x":             "not a database number",
		"redis://h:1?skip_verify=1": "for rediss://",
		"rediss://h:1?timeout=3":    `unknown parameter "timeout"`,
		"redis://":                  "not a server URL",
	} {
		if _, err := ParseURL(url); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", url, err, want)
		}
	}
}
