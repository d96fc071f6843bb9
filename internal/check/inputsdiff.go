package check

import (
	"fmt"
	"path"

	"github.com/defersim/defersim/sim"
)

// inputsDiff lists how the input files of two runs (run.inputs) differ,
// as structuralDiff's lines. Inputs are matched by content first: a file
// of the same kind and SHA-256 at another path is "moved", not one entry
// only in the baseline and one only in current (the same traces and
// catalogs checked out at another path, or named from another directory).
// The others are matched by path, then by file name when exactly one file
// of that kind and name is left on each side; their changed fields are
// listed as structuralDiff lists fields ("run.inputs[cat/a.json].sha256:
// … → …", with "old → new" in the brackets when the path changed too).
// What is left is only in one run.
func inputsDiff(base, cur []sim.Input) []string {
	const p = "run.inputs"
	used := make([]bool, len(cur))
	match := make([]int, len(base))
	for i := range match {
		match[i] = -1
	}
	// pass pairs each unmatched baseline input with the first unmatched
	// current input same says is the same file.
	pass := func(same func(b, c sim.Input) bool) {
		for i, b := range base {
			if match[i] >= 0 {
				continue
			}
			for j, c := range cur {
				if !used[j] && b.Kind == c.Kind && same(b, c) {
					match[i], used[j] = j, true
					break
				}
			}
		}
	}
	pass(func(b, c sim.Input) bool { return b.SHA256 == c.SHA256 && b.Path == c.Path })
	pass(func(b, c sim.Input) bool { return b.SHA256 == c.SHA256 })
	pass(func(b, c sim.Input) bool { return b.Path == c.Path })
	// By file name: only a name left once on each side.
	names := func(ins []sim.Input, taken func(int) bool) map[[2]string]int {
		n := map[[2]string]int{}
		for i, in := range ins {
			if !taken(i) {
				n[nameKey(in)]++
			}
		}
		return n
	}
	bn := names(base, func(i int) bool { return match[i] >= 0 })
	cn := names(cur, func(j int) bool { return used[j] })
	pass(func(b, c sim.Input) bool { k := nameKey(b); return k == nameKey(c) && bn[k] == 1 && cn[k] == 1 })
	var out []string
	for i, b := range base {
		j := match[i]
		if j < 0 {
			out = append(out, fmt.Sprintf("%s[%s]: only in the baseline", p, b.Path))
			continue
		}
		c := cur[j]
		key := b.Path
		if c.Path != b.Path {
			key = b.Path + " → " + c.Path
		}
		if b.SHA256 == c.SHA256 && c.Path != b.Path {
			out = append(out, fmt.Sprintf("%s[%s]: moved → %s (same content)", p, b.Path, c.Path))
		}
		bc, cc := b, c
		bc.Path, cc.Path = "", ""
		diffValues(fmt.Sprintf("%s[%s]", p, key), generic(bc), generic(cc), &out)
	}
	for j, c := range cur {
		if !used[j] {
			out = append(out, fmt.Sprintf("%s[%s]: only in current", p, c.Path))
		}
	}
	return out
}

// nameKey is an input's kind and file name.
func nameKey(in sim.Input) [2]string { return [2]string{in.Kind, path.Base(in.Path)} }

// withInputDiff places the input lines among lines (sorted by path, as
// diffValues writes an object's keys) where run.inputs sorts.
func withInputDiff(lines, inputs []string) []string {
	if len(inputs) == 0 {
		return lines
	}
	at := len(lines)
	for i, l := range lines {
		if l > "run.inputs" {
			at = i
			break
		}
	}
	out := append([]string(nil), lines[:at]...)
	out = append(out, inputs...)
	return append(out, lines[at:]...)
}
