package mcpsnap

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Target says how to reach one MCP server: a command to start over stdio, or
// the URL of a streamable-HTTP endpoint.
type Target struct {
	// Name is the server's catalog name; when empty the capture uses the
	// serverInfo name the server reports.
	Name string
	// Version is the catalog version (the file name's "@version"); when
	// empty the capture uses the serverInfo version the server reports,
	// which is often not the package version.
	Version string
	// Command and Args start a stdio server.
	Command string
	Args    []string
	// Env holds "KEY=VALUE" entries added to the inherited environment.
	Env []string
	// Dir is the working directory of the command ("" = current).
	Dir string
	// URL is a streamable-HTTP endpoint; exclusive with Command.
	URL string
}

// Transport returns "stdio" or "streamable-http".
func (t Target) Transport() string {
	if t.URL != "" {
		return "streamable-http"
	}
	return "stdio"
}

// Validate checks that exactly one of Command and URL is set, that a URL is
// http(s) and that every Env entry is KEY=VALUE.
func (t Target) Validate() error {
	switch {
	case t.Command == "" && t.URL == "":
		return errors.New("no command and no URL: give one")
	case t.Command != "" && t.URL != "":
		return errors.New("both a command and a URL: give one")
	}
	if t.URL != "" {
		u, err := url.Parse(t.URL)
		if err != nil {
			return fmt.Errorf("invalid URL: %w", err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("URL %q: want an http or https URL", t.URL)
		}
		if u.Host == "" {
			return fmt.Errorf("URL %q: no host", t.URL)
		}
	}
	for _, kv := range t.Env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("environment entry %q: want KEY=VALUE", kv)
		}
	}
	return nil
}

// EnvKeys returns the keys of Env in order (values are never recorded: they
// often hold credentials).
func (t Target) EnvKeys() []string {
	keys := make([]string, 0, len(t.Env))
	for _, kv := range t.Env {
		k, _, _ := strings.Cut(kv, "=")
		keys = append(keys, k)
	}
	return keys
}
