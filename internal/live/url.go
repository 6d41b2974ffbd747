package live

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/crossslot/crossslot/internal/resp"
)

// A Target is the server a URL names, and how to connect to it.
type Target struct {
	// URL is the URL as given, with its password replaced by "xxxxx", for
	// reports.
	URL  string
	Addr string // host:port of the node to start from
	Opts resp.Options
}

// ParseURL reads a server's URL as users write it:
//
//	redis://[[user]:password@]host[:port][/db]
//	rediss://...   (TLS; ?skip_verify=true accepts any certificate)
//	valkey://..., valkeys://...
//
// The port is 6379 when left out. A certificate authority of one's own is
// given the way every Go program takes one, SSL_CERT_FILE.
func ParseURL(s string) (Target, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return Target{}, fmt.Errorf("%q is not a server URL: write redis://host:port (or rediss://, valkey://, valkeys://)", s)
	}
	var t Target
	switch strings.ToLower(u.Scheme) {
	case "redis", "valkey":
	case "rediss", "valkeys":
		t.Opts.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	default:
		return Target{}, fmt.Errorf("%q: the scheme %q is not one of redis://, rediss://, valkey://, valkeys://", s, u.Scheme)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return Target{}, fmt.Errorf("%q names no host", s)
	}
	if port == "" {
		port = "6379"
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return Target{}, fmt.Errorf("%q: port %q is not a port number", s, port)
	}
	t.Addr = net.JoinHostPort(host, port)
	if u.User != nil {
		t.Opts.User = u.User.Username()
		if p, ok := u.User.Password(); ok {
			t.Opts.Password = p
		} else {
			// redis://secret@host: one word is the password, as redis-cli
			// -u reads it
			t.Opts.User, t.Opts.Password = "", u.User.Username()
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 {
			return Target{}, fmt.Errorf("%q: the path %q is not a database number", s, u.Path)
		}
		t.Opts.DB = n
	}
	for k, v := range u.Query() {
		switch k {
		case "skip_verify":
			if t.Opts.TLS == nil {
				return Target{}, fmt.Errorf("%q: skip_verify is for rediss:// and valkeys://", s)
			}
			b, err := strconv.ParseBool(v[0])
			if err != nil {
				return Target{}, fmt.Errorf("%q: skip_verify=%q is not true or false", s, v[0])
			}
			t.Opts.TLS.InsecureSkipVerify = b
		default:
			return Target{}, fmt.Errorf("%q: unknown parameter %q (the one known is skip_verify)", s, k)
		}
	}
	shown := *u
	if _, ok := u.User.Password(); ok {
		shown.User = url.UserPassword(u.User.Username(), "xxxxx")
	} else if u.User != nil {
		shown.User = url.User("xxxxx")
	}
	t.URL = shown.String()
	return t, nil
}
