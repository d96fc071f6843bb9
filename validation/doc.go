// Package validation decides whether a tool call the model would make from
// the schema it sees is accepted by the schema the server serves, and why
// not. It implements the ArgValidator interface of package sim on top of a JSON Schema validator
// (github.com/santhosh-tekuri/jsonschema/v6): the recorded arguments are
// first shaped for the seen schema (Shape), then validated against the
// served one, and the failure is classified (Classify). docs/validation.md
// states the rules and their limits.
package validation
