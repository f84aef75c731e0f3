package rpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Credentials are a SASL/PLAIN user name and password.
type Credentials struct {
	Username string
	Password string
}

// String hides the password.
func (c Credentials) String() string { return "Credentials{" + c.Username + ", ****}" }

// saslPlain is the mechanism name sent as the Authenticate protocol.
const saslPlain = "PLAIN"

// codeRetriableAuthenticate is RETRIABLE_AUTHENTICATE_EXCEPTION.
const codeRetriableAuthenticate = 51

// PlainToken returns the RFC 4616 PLAIN message with an empty authorization
// identity: NUL username NUL password.
func PlainToken(c Credentials) ([]byte, error) {
	if c.Username == "" {
		return nil, errors.New("fluss rpc: SASL/PLAIN needs a user name")
	}
	if strings.ContainsRune(c.Username, 0) || strings.ContainsRune(c.Password, 0) {
		return nil, errors.New("fluss rpc: SASL/PLAIN user name and password must not contain NUL")
	}
	tok := make([]byte, 0, 2+len(c.Username)+len(c.Password))
	tok = append(tok, 0)
	tok = append(tok, c.Username...)
	tok = append(tok, 0)
	tok = append(tok, c.Password...)
	return tok, nil
}

// authenticate runs the SASL/PLAIN exchange: one token, and an empty
// challenge back on success. A retriable authentication error is retried
// with exponential backoff (100 ms doubling, at most 5 s) until ctx ends.
func (c *Conn) authenticate(ctx context.Context, cred Credentials) error {
	tok, err := PlainToken(cred)
	if err != nil {
		return err
	}
	v, err := c.Version(protocol.Authenticate)
	if err != nil {
		return fmt.Errorf("fluss rpc: SASL configured but %w", err)
	}
	backoff := 100 * time.Millisecond
	for {
		var resp protocol.AuthenticateResponse
		req := &protocol.AuthenticateRequest{Protocol: proto.String(saslPlain), Token: tok}
		err := c.roundTrip(ctx, protocol.Authenticate, v, req, &resp, nil)
		var re *ResponseError
		if !errors.As(err, &re) || re.Code != codeRetriableAuthenticate {
			if err != nil {
				return fmt.Errorf("fluss rpc: SASL/PLAIN authentication of %q at %s: %w", cred.Username, c.addr, err)
			}
			return nil
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return fmt.Errorf("fluss rpc: SASL/PLAIN authentication of %q at %s: %w (last: %v)", cred.Username, c.addr, ctx.Err(), err)
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}
