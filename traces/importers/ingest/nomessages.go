package ingest

// WithoutMessages is the error of a messages importer (openai-messages,
// anthropic-messages) at a conversation object that has no "messages". An
// object holding "request" and "response" is one API call as gateways and
// proxies log it, not a conversation: the error says so and what to write
// instead, since the usual fix is to stitch the calls, not to look for a
// missing member.
func WithoutMessages(conv *Object) error {
	if conv.Has("request") && conv.Has("response") {
		return conv.Errorf(`a request/response pair (one API call, as gateways log it), not a conversation: ` +
			`write one conversation per session, the last request's "messages" followed by its response as an assistant message, ` +
			`each assistant message with its own call's "usage" (docs/importers.md, "A format that does not import")`)
	}
	return conv.Errorf(`conversation without "messages"`)
}
