package validation

import (
	"encoding/json"
	"fmt"
)

// Options configure a Validator.
type Options struct {
	Shape  ShapeOptions
	Limits Limits
}

// Validator is an ArgValidator of package sim. It compiles each distinct schema once
// (memoised by the SHA-256 of its bytes) and is safe for concurrent use.
type Validator struct {
	opt  Options
	memo *memo
}

// New returns a validator with the default options: shaping drops unknown
// properties only (ShapeOptions{}), DefaultLimits.
func New() *Validator { return NewWithOptions(Options{Limits: DefaultLimits()}) }

// NewWithOptions returns a validator with opt; zero limits take their
// default.
func NewWithOptions(opt Options) *Validator {
	d := DefaultLimits()
	l := &opt.Limits
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxRefHops <= 0 {
		l.MaxRefHops = d.MaxRefHops
	}
	if l.MaxMemo <= 0 {
		l.MaxMemo = d.MaxMemo
	}
	return &Validator{opt: opt, memo: newMemo(opt.Limits)}
}

// Check implements the ArgValidator interface of package sim: "" when args, shaped for seen, satisfy
// served, else the failure class — ClassIgnoredArgument when they satisfy
// it but carry a member it does not define. A served schema that cannot
// check calls (not JSON, over a limit, or does not compile: CheckSchema) is
// ClassSchemaInvalid; anything else that prevents the check (arguments
// that are not JSON or break a limit) is ClassOther.
func (v *Validator) Check(seen, served, args json.RawMessage) string {
	f, _ := v.Validate(seen, served, args)
	return f.Class
}

// Rename says that the served schema renamed a property of the seen one:
// in the object Parent leads to from the root of the arguments (property
// names; empty: the root), Old (the seen schema's name) became New.
type Rename struct {
	Parent   []string
	Old, New string
}

// CheckRenamed is Check for a served schema that renamed properties of the
// seen one (catalog.PropertyRenames, with the seen schema as the older
// side): before shaping, a member recorded under a New name is moved to
// its Old name, as a model seeing the seen schema would have sent it (so a
// renamed parameter is never valid: the served schema misses New and does
// not know Old).
func (v *Validator) CheckRenamed(seen, served, args json.RawMessage, renames []Rename) string {
	f, _ := v.validate(seen, served, args, renames)
	return f.Class
}

// Validate is Check with the deciding failure's location and, when the
// check could not be made, the reason (Class is then ClassOther).
func (v *Validator) Validate(seen, served, args json.RawMessage) (Failure, error) {
	return v.validate(seen, served, args, nil)
}

func (v *Validator) validate(seen, served, args json.RawMessage, renames []Rename) (Failure, error) {
	shaped, err := v.shape(seen, args, renames)
	if err != nil {
		return Failure{Class: ClassOther}, err
	}
	if isEmptyJSON(served) {
		return Failure{}, nil // no schema served: the server takes anything
	}
	c := v.memo.get(served)
	if c.schErr != nil {
		return Failure{Class: ClassSchemaInvalid}, fmt.Errorf("served %w", c.schErr)
	}
	if err := c.sch.Validate(shaped); err != nil {
		return Classify(err), nil
	}
	if ptr, ok := newShaper(c.doc, v.opt.Limits, ShapeOptions{}).unknown(c.doc, shaped); ok {
		return Failure{Class: ClassIgnoredArgument, Instance: ptr}, nil
	}
	return Failure{}, nil
}

// ShapeArgs shapes args for seen like Shape, with the validator's options
// and memo; the result is the decoded document Validate checks.
func (v *Validator) ShapeArgs(seen, args json.RawMessage) (json.RawMessage, error) {
	a, err := v.shape(seen, args, nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(a)
}

func (v *Validator) shape(seen, args json.RawMessage, renames []Rename) (any, error) {
	a, err := decodeArgs(args, v.opt.Limits)
	if err != nil {
		return nil, err
	}
	for _, r := range renames {
		applyRename(a, r)
	}
	if isEmptyJSON(seen) {
		return a, nil
	}
	c := v.memo.get(seen)
	if c.docErr != nil {
		// The model's view cannot be read: keep the arguments as recorded.
		return a, nil
	}
	return newShaper(c.doc, v.opt.Limits, v.opt.Shape).shape(c.doc, a, 0), nil
}

// Compiled reports how many distinct schemas the memo holds.
func (v *Validator) Compiled() int { return v.memo.size() }

// applyRename moves the member r.New of the object at r.Parent in args to
// r.Old, unless that object already has an Old member.
func applyRename(args any, r Rename) {
	obj, ok := args.(map[string]any)
	for _, key := range r.Parent {
		if !ok {
			return
		}
		obj, ok = obj[key].(map[string]any)
	}
	if !ok || r.Old == r.New {
		return
	}
	x, has := obj[r.New]
	if _, taken := obj[r.Old]; !has || taken {
		return
	}
	delete(obj, r.New)
	obj[r.Old] = x
}
