package catalog

// Kind names one kind of located change inside a tool (Change.Kind). Each
// kind has exactly one class: Kinds lists them all, and docs/catalogs.md
// has the same table (TestKindTableMatchesDocs).
type Kind string

// Change kinds. Widening (every argument set valid before stays valid) is
// schema-compatible; narrowing is breaking.
const (
	// Outside the input schema.
	KindMetadataAdded      Kind = "metadata-added"
	KindMetadataRemoved    Kind = "metadata-removed"
	KindMetadataChanged    Kind = "metadata-changed"
	KindDescriptionChanged Kind = "description-changed"
	KindNameChanged        Kind = "name-changed"
	KindUnparseable        Kind = "unparseable"
	KindChanged            Kind = "changed"

	// Annotations inside the schema.
	KindSchemaDescriptionChanged Kind = "schema-description-changed"
	KindAnnotationChanged        Kind = "annotation-changed"
	KindReordered                Kind = "reordered"

	// Types.
	KindTypeWidened      Kind = "type-widened"
	KindTypeRemoved      Kind = "type-removed"
	KindObjectTypeStated Kind = "object-type-stated"
	KindNullableAdded    Kind = "nullable-added"
	KindNullableRemoved  Kind = "nullable-removed"
	KindTypeChanged      Kind = "type-changed"
	KindTypeAdded        Kind = "type-added"

	// Properties.
	KindPropertyAdded                Kind = "property-added"
	KindPropertyRemoved              Kind = "property-removed"
	KindPropertyRenamed              Kind = "property-renamed"
	KindRequiredAdded                Kind = "required-added"
	KindRequiredRemoved              Kind = "required-removed"
	KindAdditionalPropertiesOpened   Kind = "additional-properties-opened"
	KindAdditionalPropertiesClosed   Kind = "additional-properties-closed"
	KindAdditionalPropertiesNarrowed Kind = "additional-properties-narrowed"
	KindDefinitionAdded              Kind = "definition-added"
	KindDefinitionRemoved            Kind = "definition-removed"
	KindDefinitionsChanged           Kind = "definitions-changed"
	KindUnusedDefinitionChanged      Kind = "unused-definition-changed"

	// Values.
	KindEnumWidened     Kind = "enum-widened"
	KindEnumRemoved     Kind = "enum-removed"
	KindEnumNarrowed    Kind = "enum-narrowed"
	KindEnumAdded       Kind = "enum-added"
	KindConstEnumSwap   Kind = "const-enum-swapped"
	KindConstAdded      Kind = "const-added"
	KindConstRemoved    Kind = "const-removed"
	KindConstChanged    Kind = "const-changed"
	KindConstraintLoose Kind = "constraint-loosened"
	KindConstraintTight Kind = "constraint-tightened"
	KindConstraintOther Kind = "constraint-changed"
	KindSafeBoundAdded  Kind = "safe-integer-bound-added"
	KindSafeBoundGone   Kind = "safe-integer-bound-removed"
	KindAssertionAdded  Kind = "assertion-added"
	KindAssertionGone   Kind = "assertion-removed"
	KindAssertionChange Kind = "assertion-changed"

	// Arrays.
	KindItemsAdded       Kind = "items-added"
	KindItemsRemoved     Kind = "items-removed"
	KindTupleItemAdded   Kind = "tuple-item-added"
	KindTupleItemRemoved Kind = "tuple-item-removed"

	// Alternatives and shapes.
	KindBranchAdded        Kind = "branch-added"
	KindBranchRemoved      Kind = "branch-removed"
	KindOneOfOverlap       Kind = "oneof-overlap"
	KindAllOfBranchAdded   Kind = "allof-branch-added"
	KindAllOfBranchRemoved Kind = "allof-branch-removed"
	KindSchemaOpened       Kind = "schema-opened"
	KindSchemaClosed       Kind = "schema-closed"
	KindSchemaReplaced     Kind = "schema-replaced"
	KindRefChanged         Kind = "ref-changed"
	KindKeywordChanged     Kind = "keyword-changed"
)

// KindInfo is one row of the kind table: a kind, its class and what it means.
type KindInfo struct {
	Kind    Kind
	Class   Class
	Meaning string
}

// Kinds lists every kind Diff emits, least severe class first.
var Kinds = []KindInfo{
	{KindMetadataAdded, ClassMetadataOnly, "a member outside name, description and inputSchema (annotations, title, outputSchema, `_meta`, icons, execution, …) appeared, down to the first differing leaf"},
	{KindMetadataRemoved, ClassMetadataOnly, "such a member disappeared"},
	{KindMetadataChanged, ClassMetadataOnly, "such a member's value changed (Detail: old → new)"},

	{KindDescriptionChanged, ClassDescriptionOnly, "the tool's own description (Detail: sizes)"},

	{KindSchemaDescriptionChanged, ClassSchemaCompatible, "a description inside the input schema (Detail: sizes)"},
	{KindAnnotationChanged, ClassSchemaCompatible, "title, default, examples, `$schema`, `$id`, deprecated, … or an unknown keyword inside the schema; `uniqueItems` false ↔ absent"},
	{KindReordered, ClassSchemaCompatible, "same meaning, different spelling: the order of `required`, `enum` or alternatives, `10` → `10.0`"},
	{KindTypeWidened, ClassSchemaCompatible, "the `type` allows every type it allowed and more (incl. integer → number)"},
	{KindTypeRemoved, ClassSchemaCompatible, "the `type` keyword disappeared"},
	{KindObjectTypeStated, ClassSchemaCompatible, "`type: object` added at the root of the input schema, where the arguments are always an object"},
	{KindNullableAdded, ClassSchemaCompatible, "null became acceptable: `null` added to a type list, or a `{\"type\":\"null\"}` alternative added (anyOf/oneOf)"},
	{KindPropertyAdded, ClassSchemaCompatible, "a property appeared (its requirement, if any, is a separate required-added)"},
	{KindRequiredRemoved, ClassSchemaCompatible, "a property is no longer required"},
	{KindAdditionalPropertiesOpened, ClassSchemaCompatible, "`additionalProperties` no longer false, or no longer restricted"},
	{KindDefinitionAdded, ClassSchemaCompatible, "a `$defs`/`definitions` entry appeared (judged where a `$ref` uses it)"},
	{KindDefinitionRemoved, ClassSchemaCompatible, "a `$defs`/`definitions` entry disappeared (judged where a `$ref` used it)"},
	{KindUnusedDefinitionChanged, ClassSchemaCompatible, "a `$defs`/`definitions` entry that no `$ref` of the schema uses (on either side) changed: no argument is checked against it"},
	{KindDefinitionsChanged, ClassSchemaCompatible, "`$defs`/`definitions` is not an object on one side"},
	{KindEnumWidened, ClassSchemaCompatible, "values added to an `enum`, none removed"},
	{KindEnumRemoved, ClassSchemaCompatible, "the `enum` keyword disappeared"},
	{KindConstEnumSwap, ClassSchemaCompatible, "a one-value `enum` became an equal `const`, or back"},
	{KindConstRemoved, ClassSchemaCompatible, "the `const` keyword disappeared"},
	{KindConstraintLoose, ClassSchemaCompatible, "a bound removed or relaxed: minimum/minLength/minItems/… lowered, maximum/maxLength/maxItems/… raised, `uniqueItems` turned off, draft-4 `exclusiveMinimum: false`"},
	{KindSafeBoundAdded, ClassSchemaCompatible, "a numeric bound at or beyond ±(2^53−1) appeared: it excludes no value a model would send (zod adds it to integers)"},
	{KindSafeBoundGone, ClassSchemaCompatible, "such a bound disappeared"},
	{KindAssertionGone, ClassSchemaCompatible, "an assertion keyword disappeared: pattern, format, multipleOf, not, if/then/else, dependentRequired, propertyNames, contains, … (the path names it)"},
	{KindItemsRemoved, ClassSchemaCompatible, "`items`/`prefixItems` disappeared"},
	{KindBranchAdded, ClassSchemaCompatible, "an anyOf/oneOf alternative appeared (a schema that became a union of itself and more counts as its alternatives added)"},
	{KindAllOfBranchRemoved, ClassSchemaCompatible, "an allOf branch disappeared"},
	{KindSchemaOpened, ClassSchemaCompatible, "a subschema became `true` or `{}`, or stopped being `false`"},
	{KindChanged, ClassSchemaCompatible, "the definitions differ but no rule located the difference (a safety net, not expected)"},

	{KindNameChanged, ClassBreaking, "the tool's name member differs (only for tools compared by another key)"},
	{KindUnparseable, ClassBreaking, "a definition built in memory could not be parsed; any difference counts as breaking"},
	{KindNullableRemoved, ClassBreaking, "null is no longer acceptable: `null` dropped from a type list, or a `{\"type\":\"null\"}` alternative removed"},
	{KindTypeChanged, ClassBreaking, "the `type` no longer allows a type it allowed (incl. number → integer)"},
	{KindTypeAdded, ClassBreaking, "a `type` keyword appeared where there was none"},
	{KindPropertyRemoved, ClassBreaking, "a property disappeared, with no evidence of a successor"},
	{KindPropertyRenamed, ClassBreaking, "a property disappeared and a successor with the same type appeared, with evidence: the same name once case, `_` and `-` are ignored, a description at least half alike, or a name at least 75% alike (Detail: the successor and the evidence)"},
	{KindRequiredAdded, ClassBreaking, "a property became required"},
	{KindAdditionalPropertiesClosed, ClassBreaking, "`additionalProperties: false` appeared"},
	{KindAdditionalPropertiesNarrowed, ClassBreaking, "`additionalProperties` went from absent or true to a schema"},
	{KindEnumNarrowed, ClassBreaking, "values removed from an `enum`"},
	{KindEnumAdded, ClassBreaking, "an `enum` appeared"},
	{KindConstAdded, ClassBreaking, "a `const` appeared"},
	{KindConstChanged, ClassBreaking, "a `const` changed value"},
	{KindConstraintTight, ClassBreaking, "a bound added or tightened: minimum/minLength/minItems/… added or raised, maximum/maxLength/maxItems/… added or lowered, `uniqueItems` turned on, draft-4 `exclusiveMinimum: true`"},
	{KindConstraintOther, ClassBreaking, "a bound changed in a way that cannot be compared (not a number)"},
	{KindAssertionAdded, ClassBreaking, "an assertion keyword appeared (pattern, format, multipleOf, not, …; the path names it)"},
	{KindAssertionChange, ClassBreaking, "an assertion keyword changed value"},
	{KindItemsAdded, ClassBreaking, "`items`/`prefixItems` appeared"},
	{KindTupleItemAdded, ClassBreaking, "a tuple gained a position"},
	{KindTupleItemRemoved, ClassBreaking, "a tuple lost a position"},
	{KindBranchRemoved, ClassBreaking, "an anyOf/oneOf alternative disappeared with no alternative that accepts its values (a union that became one schema counts too)"},
	{KindOneOfOverlap, ClassBreaking, "a oneOf alternative appeared that also accepts the values of an existing one: those values now match twice and fail"},
	{KindAllOfBranchAdded, ClassBreaking, "an allOf branch appeared"},
	{KindSchemaClosed, ClassBreaking, "a subschema became `false`"},
	{KindSchemaReplaced, ClassBreaking, "a subschema changed shape (object ↔ boolean, schema ↔ tuple) in a way not compared further"},
	{KindRefChanged, ClassBreaking, "a `$ref` that cannot be resolved locally changed, appeared or disappeared"},
	{KindKeywordChanged, ClassBreaking, "a keyword holds a value of the wrong shape on one side (e.g. `required` not a list of strings)"},
}

// kindClass maps each kind to its class.
var kindClass = func() map[Kind]Class {
	m := make(map[Kind]Class, len(Kinds))
	for _, k := range Kinds {
		m[k.Kind] = k.Class
	}
	return m
}()

// ClassOf returns the class of kind k (ClassNone for an unknown kind).
func ClassOf(k Kind) Class { return kindClass[k] }
