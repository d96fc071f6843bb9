package csvsafe

import "testing"

// TestText pins issue 18.8: session ids such as =HYPERLINK(…) went into
// CSVs unescaped; a text cell that a spreadsheet would evaluate now starts
// with an apostrophe, and other text is unchanged.
func TestText(t *testing.T) {
	for in, want := range map[string]string{
		`=HYPERLINK("http://x","y")`: `'=HYPERLINK("http://x","y")`,
		"+1+cmd":                     "'+1+cmd",
		"-2+3":                       "'-2+3",
		"@SUM(A1)":                   "'@SUM(A1)",
		"\t=1":                       "'\t=1",
		"\r=1":                       "'\r=1",
		"sess-1":                     "sess-1",
		"a=b":                        "a=b",
		"":                           "",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{
		"-2.5":            "-2.5",
		"+1e3":            "+1e3",
		"-0":              "-0",
		"-2+3":            "'-2+3",
		"-":               "'-",
		"=1":              "'=1",
		"@x":              "'@x",
		"12":              "12",
		"-1e":             "'-1e",
		"sess-1":          "sess-1",
		"":                "",
		"-1.5e-3":         "-1.5e-3",
		"+":               "'+",
		"--1":             "'--1",
		"-inf":            "'-inf",
		"-1,=HYPERLINK()": "'-1,=HYPERLINK()",
	} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}
