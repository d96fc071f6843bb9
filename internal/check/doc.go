// Package check compares two results files metric by metric and decides
// whether the second (current) regressed against the first (baseline): the
// CI regression gate behind `defersim check`. A change counts as a
// regression only when it is worse than the metric's tolerance (relative
// and absolute) and larger than the noise the two runs' confidence
// intervals allow. Results that cannot be compared (another schema
// version, scenario or strategy set) are reported as such, with what
// differs. See docs/check.md.
package check
