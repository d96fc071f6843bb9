package report

import "strings"

// paramUnit names the unit of a swept parameter, from the last key of its
// path (docs/scenarios.md lists the keys); "" when the key has none.
func paramUnit(param string) string {
	key := param[strings.LastIndex(param, ".")+1:]
	switch key {
	case "catalog tools":
		return "" // the name says it
	case "count", "max_tools", "k":
		return "tools"
	case "budget":
		return "estimated tokens"
	case "ttl_s":
		return "s"
	case "percent":
		return "%"
	case "keyword_retries":
		return "retries"
	case "desc_chars":
		return "characters"
	case "bytes_per_token":
		return "bytes per token"
	case "input_per_mtok", "output_per_mtok":
		return "USD per million tokens"
	case "read_multiplier", "write_multiplier":
		return "× input price"
	case "jitter_cv":
		return "coefficient of variation"
	}
	switch {
	case strings.HasSuffix(key, "_tps"):
		return "tokens/s"
	case strings.HasSuffix(key, "_ms"):
		return "ms"
	case strings.HasSuffix(key, "_tokens"), key == "context_window":
		return "tokens"
	case strings.HasSuffix(key, "_prob"):
		return "probability"
	}
	return ""
}

// metricTitle is a metric's name for titles and labels: words instead of
// underscores, without the unit suffix the axis names ("first_reply_ms"
// → "first reply").
func metricTitle(name string) string {
	for _, suffix := range []string{"_ms", "_usd"} {
		name = strings.TrimSuffix(name, suffix)
	}
	return strings.ReplaceAll(name, "_", " ")
}

// withUnit writes "label (unit)", or label alone when unit is "".
func withUnit(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}
