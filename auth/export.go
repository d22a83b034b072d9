package auth

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/arenaref/arena/store"
)

// Limits are the server-wide limits of a secured bus.
type Limits struct {
	// MaxPayload is the largest message the server accepts, in bytes; 0 leaves the
	// server's default (1 MiB).
	MaxPayload int
	// MaxConnections is the most clients connected at once; 0 leaves the server's default
	// (65536).
	MaxConnections int
}

// ExportConfig writes a nats-server configuration for creds: the limits, a listen line when
// listen is not empty, and the authorization block with every user and its permissions, as
// ServerUsers gives them to the embedded server. It holds hashes and public keys only. The
// text is a whole configuration file, and can also be included from another one.
func ExportConfig(w io.Writer, creds []store.Credential, l Limits, listen string) error {
	users, nks, err := ServerUsers(creds)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# nats-server configuration written by arena credentials export.")
	fmt.Fprintln(bw, "# It holds password hashes and public keys only. Run: nats-server -c FILE")
	if listen != "" {
		fmt.Fprintf(bw, "listen: %s\n", strconv.Quote(listen))
	}
	if l.MaxPayload > 0 {
		fmt.Fprintf(bw, "max_payload: %d\n", l.MaxPayload)
	}
	if l.MaxConnections > 0 {
		fmt.Fprintf(bw, "max_connections: %d\n", l.MaxConnections)
	}
	fmt.Fprintln(bw, "authorization {")
	fmt.Fprintln(bw, "  users: [")
	for _, u := range users {
		fmt.Fprintf(bw, "    {user: %s, password: %s, permissions: %s}\n", strconv.Quote(u.Username), strconv.Quote(u.Password), permissionsText(u.Permissions))
	}
	for _, u := range nks {
		fmt.Fprintf(bw, "    {nkey: %s, permissions: %s}\n", strconv.Quote(u.Nkey), permissionsText(u.Permissions))
	}
	fmt.Fprintln(bw, "  ]")
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

func permissionsText(p *server.Permissions) string {
	var parts []string
	if s := subjectsText(p.Publish); s != "" {
		parts = append(parts, "publish: "+s)
	}
	if s := subjectsText(p.Subscribe); s != "" {
		parts = append(parts, "subscribe: "+s)
	}
	if p.Response != nil {
		parts = append(parts, fmt.Sprintf("allow_responses: {max: %d, expires: %s}", p.Response.MaxMsgs, strconv.Quote(p.Response.Expires.String())))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func subjectsText(s *server.SubjectPermission) string {
	if s == nil {
		return ""
	}
	var parts []string
	if len(s.Allow) > 0 {
		parts = append(parts, "allow: "+quoteList(s.Allow))
	}
	if len(s.Deny) > 0 {
		parts = append(parts, "deny: "+quoteList(s.Deny))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
