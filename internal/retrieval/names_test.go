package retrieval

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd/routed"
)

// TestUnknownNamesOfferTheNameMeant pins srd eval's --set, ranker and
// mode names that resolve to nothing: the errors listed every known name
// and now end with the one most likely meant (catalog.NearName); a name
// close to none is offered nothing.
func TestUnknownNamesOfferTheNameMeant(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  func() error
		want string // "": no name offered
	}{
		{"set", func() error { _, err := LoadNamed("near-synonm", Sources{}, nil); return err }, `; did you mean "near-synonym"?`},
		{"set case", func() error { _, err := LoadNamed("MetaTool", Sources{}, nil); return err }, `; did you mean "metatool" (the same name in another case)?`},
		{"set unrelated", func() error { _, err := LoadNamed("zzz", Sources{}, nil); return err }, ""},
		{"ranker", func() error {
			_, err := Arms([]string{"bm2"}, search.Factories(), nil, routed.DefaultOptions())
			return err
		}, `; did you mean "bm25"?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.want == "" {
				if strings.Contains(err.Error(), "did you mean") {
					t.Errorf("offers a name: %v", err)
				}
			} else if !strings.HasSuffix(err.Error(), tc.want) {
				t.Errorf("%v\nwant it to end %q", err, tc.want)
			}
		})
	}
}
