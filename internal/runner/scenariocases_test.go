package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// scenarioCase is a scenario (its YAML after a common head) and the
// substrings a check's error must hold (none: the check accepts it).
type scenarioCase struct {
	name, yaml string
	want       []string
}

// testConfig resolves the scenario yaml (named test.yaml) with ov over the
// embedded default data.
func testConfig(t *testing.T, yaml string, ov Overrides) Config {
	t.Helper()
	sc, err := scenarios.Parse([]byte(yaml), "test.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromScenario(sc, ov, defaultdata.FS())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// runScenarioCases runs check on each case's scenario (head + yaml) and
// compares its error with the case's want.
func runScenarioCases(t *testing.T, head string, cases []scenarioCase, check func(*testing.T, Config) error) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := check(t, testConfig(t, head+c.yaml, Overrides{}))
			if len(c.want) == 0 {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted; want an error naming %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}
