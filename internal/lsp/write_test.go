package lsp

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/lsp/protocol"
)

// TestLSPWriteNeverDropsAReply: a reply the server cannot encode (a NaN
// in its result) reaches the client as an internal error for its request,
// not as an empty body; a notification it cannot encode is not sent.
func TestLSPWriteNeverDropsAReply(t *testing.T) {
	var out bytes.Buffer
	s := newServer(&out)
	s.write(protocol.Message{ID: json.RawMessage(`7`), Result: math.NaN()})
	_, body, ok := strings.Cut(out.String(), "\r\n\r\n")
	if !ok {
		t.Fatalf("no message written: %q", out.String())
	}
	var reply struct {
		ID    int `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		t.Fatalf("the reply is not JSON: %v: %q", err, body)
	}
	if reply.ID != 7 || reply.Error.Code != -32603 || !strings.Contains(reply.Error.Message, "NaN") {
		t.Fatalf("reply %+v, want request 7's internal error naming the NaN", reply)
	}
	out.Reset()
	s.notify("textDocument/publishDiagnostics", math.Inf(1))
	if out.Len() != 0 {
		t.Fatalf("an unencodable notification was sent: %q", out.String())
	}
}
