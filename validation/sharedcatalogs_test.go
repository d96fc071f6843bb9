package validation_test

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/validation"
)

// TestSharedCatalogSchemasAllCompile backs docs/validation.md's figure: of
// the shared real catalogs' tool schemas, none fails its meta-schema, so
// the input_schema_invalid note does not fire on real servers' output.
func TestSharedCatalogSchemasAllCompile(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	servers := cat.All()
	tools := 0
	for _, s := range servers {
		tools += len(s.Tools)
	}
	if len(servers) != 73 || tools != 1426 {
		t.Errorf("%d server versions, %d tools; docs/validation.md says 73 catalogs, 1,426 schemas", len(servers), tools)
	}
	if bad := catalog.InvalidSchemas(servers, validation.SchemaCheck); len(bad) > 0 {
		t.Errorf("%d schemas fail their meta-schema, first: %s", len(bad), bad[0])
	}
}
