// Package sharedcache is a GOCACHEPROG program for tests: the go command's
// build cache kept in a directory that several "machines" (go commands with
// GOCACHE directories of their own) share, as a remote cache shares them
// between CI runners. It speaks the protocol of cmd/go/internal/cacheprog:
// JSON requests on standard input (a put's body on the next line, a base64
// JSON string), JSON responses on standard output, the first one listing
// the commands it knows.
package sharedcache

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// An entry is what the shared directory holds for one action.
type entry struct {
	OutputID []byte
	Body     []byte
}

// Serve answers the go command on in and out: the shared directory holds
// each action's output, local the files the go command reads (DiskPath
// must be a file on this machine). Gets and puts are counted in stats when
// it is not nil.
func Serve(in io.Reader, out io.Writer, shared, local string, stats *Stats) error {
	for _, dir := range []string{shared, local} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(out)
	if err := enc.Encode(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	r := bufio.NewReaderSize(in, 1<<20)
	dec := json.NewDecoder(r)
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		res := response{ID: req.ID}
		switch req.Command {
		case "put":
			var body []byte
			if req.BodySize > 0 {
				var b64 string
				if err := dec.Decode(&b64); err != nil {
					return fmt.Errorf("put %d: body: %v", req.ID, err)
				}
				var err error
				if body, err = base64.StdEncoding.DecodeString(b64); err != nil {
					return fmt.Errorf("put %d: body: %v", req.ID, err)
				}
			}
			path, err := store(shared, local, req.ActionID, entry{OutputID: req.OutputID, Body: body})
			if err != nil {
				res.Err = err.Error()
			}
			res.DiskPath = path
			stats.count(false)
		case "get":
			e, ok, err := load(shared, req.ActionID)
			switch {
			case err != nil:
				res.Err = err.Error()
			case !ok:
				res.Miss = true
			default:
				path := filepath.Join(local, hex.EncodeToString(e.OutputID))
				if err := os.WriteFile(path, e.Body, 0o644); err != nil {
					res.Err = err.Error()
				}
				res.OutputID, res.Size, res.DiskPath = e.OutputID, int64(len(e.Body)), path
			}
			stats.count(true)
		case "close":
			return enc.Encode(res)
		default:
			res.Err = "unknown command " + req.Command
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
}

func store(shared, local string, action []byte, e entry) (string, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(shared, "put-*")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", werr
	}
	if err := os.Rename(tmp.Name(), filepath.Join(shared, hex.EncodeToString(action))); err != nil {
		return "", err
	}
	path := filepath.Join(local, hex.EncodeToString(e.OutputID))
	return path, os.WriteFile(path, e.Body, 0o644)
}

func load(shared string, action []byte) (entry, bool, error) {
	data, err := os.ReadFile(filepath.Join(shared, hex.EncodeToString(action)))
	if errors.Is(err, os.ErrNotExist) {
		return entry{}, false, nil
	}
	if err != nil {
		return entry{}, false, err
	}
	var e entry
	return e, true, json.Unmarshal(data, &e)
}

// Stats counts one program's requests.
type Stats struct{ Gets, Puts int }

func (s *Stats) count(get bool) {
	if s == nil {
		return
	}
	if get {
		s.Gets++
	} else {
		s.Puts++
	}
}
