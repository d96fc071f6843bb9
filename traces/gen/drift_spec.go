package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// ApplyDriftSpec sets p.Drift from a compact command-line form:
// "off" (no drift; every drift key back to its default), or comma-separated key=value pairs among servers,
// versions, changed, added, removed, mid (e.g. "servers=3,versions=4,mid=0.2").
// Keys not given keep their value. The result is not validated here.
func ApplyDriftSpec(p *Params, spec string) error {
	spec = strings.TrimSpace(spec)
	if spec == "off" || spec == "none" {
		// No drift at all: the other drift keys go back to their defaults,
		// which New requires when drift.servers is 0 (they would change
		// nothing), so --drift off works over any parameter file.
		p.Drift = Defaults().Drift
		p.Drift.Servers = 0
		return nil
	}
	if spec == "" {
		return fmt.Errorf("drift: empty specification (want \"off\" or key=value pairs)")
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return fmt.Errorf("drift: %q is not key=value", kv)
		}
		switch k {
		case "servers", "versions":
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("drift: %s: %w", k, err)
			}
			if k == "servers" {
				p.Drift.Servers = n
			} else {
				p.Drift.Versions = n
			}
		case "changed", "added", "removed", "mid":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("drift: %s: %w", k, err)
			}
			switch k {
			case "changed":
				p.Drift.ChangedFraction = x
			case "added":
				p.Drift.AddedFraction = x
			case "removed":
				p.Drift.RemovedFraction = x
			default:
				p.Drift.MidSession = x
			}
		default:
			return fmt.Errorf("drift: unknown key %q (want servers, versions, changed, added, removed or mid)", k)
		}
	}
	return nil
}
