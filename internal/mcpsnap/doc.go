// Package mcpsnap captures the tool catalog of a running MCP server: it
// starts the server over stdio (or reaches it over streamable HTTP), performs
// the real handshake through the official Go SDK (initialize,
// notifications/initialized, tools/list with pagination) and returns the
// tools exactly as served, the initialize result and the handshake timings.
// Several captures of one server give the median and spread of each timing
// and show whether the catalog is stable across restarts.
//
// Tools are taken from the raw JSON-RPC responses, not from the SDK's typed
// result, so every field the server sends is kept (including fields the SDK
// does not model) and tools the SDK would filter out are not lost.
package mcpsnap
