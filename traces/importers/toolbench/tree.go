package toolbench

import (
	"encoding/json"
	"errors"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// node is one node of ToolBench's search tree. A model step adds a Thought
// (optional), an Action (the function name) and an Action Input (the
// arguments, with the observation the call returned); expand_num numbers
// the steps in the order the search took them.
type node struct {
	Type            string  `json:"node_type"`
	Description     string  `json:"description"`
	Observation     *string `json:"observation"`
	ObservationCode *int    `json:"observation_code"`
	Expand          int     `json:"expand_num"`
	Children        []*node `json:"children"`
}

// tree is the search tree of one answer.
type tree struct{ root *node }

// maxTreeDepth bounds the recursion over a tree read from a file.
const maxTreeDepth = 10000

func readTree(raw json.RawMessage) (*tree, error) {
	var t struct {
		Tree *node `json:"tree"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	if t.Tree == nil {
		return nil, errors.New("no root node")
	}
	if depth(t.Tree, 0) > maxTreeDepth {
		return nil, errors.New("deeper than 10000 nodes")
	}
	return &tree{root: t.Tree}, nil
}

func depth(n *node, d int) int {
	if d > maxTreeDepth {
		return d
	}
	m := d
	for _, c := range n.Children {
		if c != nil {
			m = max(m, depth(c, d+1))
		}
	}
	return m
}

// expansions returns the number of model steps the search took (its
// largest expand_num).
func (t *tree) expansions() (int, bool) {
	m := 0
	var walk func(n *node)
	walk = func(n *node) {
		m = max(m, n.Expand)
		for _, c := range n.Children {
			if c != nil {
				walk(c)
			}
		}
	}
	walk(t.root)
	return m, m > 0
}

// lastPath returns the nodes from the root to the step the search took
// last (the Action Input node with the largest expand_num).
func (t *tree) lastPath() []*node {
	var best []*node
	bestN := -1
	var walk func(n *node, path []*node)
	walk = func(n *node, path []*node) {
		path = append(path, n)
		if n.Type == "Action Input" && n.Observation != nil && n.Expand > bestN {
			bestN = n.Expand
			best = append([]*node(nil), path...)
		}
		for _, c := range n.Children {
			if c != nil {
				walk(c, path)
			}
		}
	}
	walk(t.root, nil)
	return best
}

// lastPathMessages turns the last path into chat messages: the query, then
// per step an assistant message (the thought as content, the function call)
// and the function's result.
func (t *tree) lastPathMessages(query string) ([]*ingest.Object, error) {
	var msgs []map[string]any
	if query != "" {
		msgs = append(msgs, map[string]any{"role": "user", "content": query})
	}
	var thought, action *node
	for i, n := range t.lastPath() {
		switch {
		case i == 0:
			// the root stands for the query
		case n.Type == "Thought":
			thought = n
		case n.Type == "Action":
			action = n
		case n.Type == "Action Input" && action != nil:
			m := map[string]any{"role": "assistant", "content": nil,
				"function_call": map[string]string{"name": action.Description, "arguments": n.Description}}
			if thought != nil {
				m["content"] = thought.Description
			}
			msgs = append(msgs, m)
			if n.Observation != nil {
				msgs = append(msgs, map[string]any{"role": "function", "name": action.Description, "content": *n.Observation})
			}
			thought, action = nil, nil
		}
	}
	out := make([]*ingest.Object, 0, len(msgs))
	for _, m := range msgs {
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		o, err := ingest.NewObject("tree", "tree", raw)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// finishResults gives the session's last call, when it has no result (the
// answer chain ends with the call), the observation the search tree
// records for the same path.
func finishResults(b *ingest.Builder, t *tree, rep *ingest.Report) {
	var calls []int
	for i, ev := range b.Session().Events {
		if ev.Type == traces.ToolCall {
			calls = append(calls, i)
		}
	}
	if len(calls) == 0 || b.At(calls[len(calls)-1]).Status != "" {
		return
	}
	var found *node
	var walk func(n, action *node, k int)
	walk = func(n, action *node, k int) {
		if found != nil {
			return
		}
		next, act := k, action
		switch n.Type {
		case "Action":
			act = n
		case "Action Input":
			if action == nil {
				break
			}
			ev := b.At(calls[k])
			if action.Description != ev.Tool || string(ingest.Compact(json.RawMessage(n.Description))) != string(ev.Args) {
				return
			}
			if k == len(calls)-1 {
				found = n
				return
			}
			next, act = k+1, nil
		}
		for _, c := range n.Children {
			if c != nil {
				walk(c, act, next)
			}
		}
	}
	walk(t.root, nil, 0)
	if found == nil || found.Observation == nil {
		return
	}
	i := calls[len(calls)-1]
	if !b.Settle(i) {
		return
	}
	failed := ""
	if ingest.ContentMarksError(*found.Observation) {
		failed = "result content (isError, is_error or a non-empty error member)"
	}
	b.Result(i, *found.Observation, failed)
	rep.Convert("last call of the answer chain without a result message: result taken from the search tree's observation on the same path")
}
