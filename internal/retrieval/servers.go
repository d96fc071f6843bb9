package retrieval

import (
	"slices"

	"github.com/defersim/defersim/srd"
)

// corpusServers returns how many servers the tools of set name and, when
// srds holds any SRD, those none of whose tools an SRD describes (sorted):
// a report that counted only the SRDs ("5 domains (4 SRDs)") did not say
// that a server of the corpus had none and was routed as its own domain.
func corpusServers(set *Set, srds *srd.Set) (int, []string) {
	described := map[string]bool{}
	for _, t := range set.Tools {
		if t.Server == "" {
			continue
		}
		described[t.Server] = described[t.Server] || srds.ForTool(t.Server, t.Name) != nil
	}
	var without []string
	if len(srds.SRDs()) > 0 {
		for server, ok := range described {
			if !ok {
				without = append(without, server)
			}
		}
		slices.Sort(without)
	}
	return len(described), without
}

// serverOf is a tool's server: its own, else the server of the SRD that
// groups it (a pseudo-server for serverless sets), else its name.
func serverOf(set *srd.Set, t Tool) string {
	if t.Server != "" {
		return t.Server
	}
	if d := set.ForTool("", t.Name); d != nil {
		return d.ServerID
	}
	return t.Name
}
