package gen

import "strings"

// userText writes a user message of about target bytes. When t is not nil
// the message asks for what t does, naming its object with the tool's own
// word (probability keyword) or a synonym, so search queries derived from
// user text behave like real ones: mostly hits, sometimes misses.
func userText(r *rng, t *toolDef, dom *domain, keyword float64, target int, first bool) string {
	var s string
	if t != nil {
		word := t.noun.alt
		if r.chance(keyword) {
			word = t.noun.one
			if t.verb.plural {
				word = t.noun.many
			}
			word = human(word)
		}
		thing := word
		if r.chance(0.6) {
			thing += " for " + pick(r, t.dom.values)
		}
		ask := t.verb.ask
		if ask == "" {
			ask = "use the"
		}
		s = strings.NewReplacer("{ask}", ask, "{thing}", thing).Replace(pick(r, userAsk))
	} else {
		tmpl := userReply
		if first {
			tmpl = userOpen
		}
		s = strings.ReplaceAll(pick(r, tmpl), "{value}", pick(r, dom.values))
		target /= 2
	}
	// Pad with filler sentences up to the drawn length.
	for guard := 0; len(s) < target && guard < 1000; guard++ {
		s += " " + pick(r, userFiller)
	}
	return s
}

// errorText writes the error message of a failed call of t.
func errorText(r *rng, t *toolDef) string {
	return strings.NewReplacer("{a}", human(t.a), "{n}", human(t.noun.one)).Replace(pick(r, errorTexts))
}
