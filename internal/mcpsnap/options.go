package mcpsnap

import (
	"net/http"
	"time"
)

// DefaultProtocolVersion is the protocol version a capture requests unless
// told otherwise: the one the captures in the shared catalogs requested.
const DefaultProtocolVersion = "2025-06-18"

// Options tune a capture. The zero value is usable: every zero field takes
// its default.
type Options struct {
	// Timeout bounds one whole capture (start, initialize, tools/list).
	// Default 30s.
	Timeout time.Duration
	// Captures is how many times Take captures the server, each time from a
	// fresh process (or HTTP session). Default 1.
	Captures int
	// ProtocolVersion is the version sent in initialize. Default
	// DefaultProtocolVersion.
	ProtocolVersion string
	// StderrLines is how many of the server's last stderr lines are kept.
	// Default 20.
	StderrLines int
	// Grace is how long a server may take to exit after its stdin is closed,
	// and again after SIGTERM, before it is killed. Default 2s.
	Grace time.Duration
	// MaxPages bounds tools/list pagination. Default 1000.
	MaxPages int
	// ClientName and ClientVersion are sent as clientInfo. Defaults
	// "defersim" and "dev".
	ClientName, ClientVersion string
	// HTTPClient is used for URL targets. Default: a new client.
	HTTPClient *http.Client
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Captures <= 0 {
		o.Captures = 1
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = DefaultProtocolVersion
	}
	if o.StderrLines <= 0 {
		o.StderrLines = 20
	}
	if o.Grace <= 0 {
		o.Grace = 2 * time.Second
	}
	if o.MaxPages <= 0 {
		o.MaxPages = 1000
	}
	if o.ClientName == "" {
		o.ClientName = "defersim"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o
}
