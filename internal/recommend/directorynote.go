package recommend

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
)

// lazyDiscoveryNote says, for a base with discovery lazy, what the
// directory figures assume that such a run does not send: every server's
// tools listed. Under lazy discovery a server's tools are in neither
// tools[] nor the directory (which names the server) until a search lists
// it, so the directory a run sends before that is smaller than priced.
// "" for any other discovery.
func lazyDiscoveryNote(baseName, discovery string) string {
	if discovery != "lazy" {
		return ""
	}
	return fmt.Sprintf("base %s uses discovery: lazy, where a server's tools are in neither tools[] nor the directory until a search lists the server; "+
		"the directory recommend prices (directory_tokens, and in the round trip's and the loads' prompts) lists every server's deferred tools, "+
		"so it is larger than what a run sends before its servers are listed, and the round trip and the loads cost less there than priced", baseName)
}

// fewerServersNote says how many training sessions are offered fewer
// servers than the catalogs hold (their session_start names fewer): the
// directory and the deferred schemas recommend prices are those of every
// catalog server, which those sessions do not see.
func fewerServersNote(fewer, servers, training int) string {
	return fmt.Sprintf("%d of %s %s offered fewer than the catalogs' %d servers (their session_start names fewer): "+
		"the directory and the deferred schemas recommend prices are every catalog server's, so for those sessions the round trip's "+
		"and the loads' prompts are priced with servers they do not see", fewer, nouns.Count(training, "training session"), wasWere(fewer), servers)
}
