package plan

import (
	"strings"

	"github.com/defersim/defersim/internal/cliout"
)

// Line is one line plan says about its figures outside the tables: a
// statement (the growth points' cache assumption) or a warning (a
// projection's warning, an assumption off the traffic, requests over the
// context window). The plan package builds it; each format renders it, so
// that no caller has to tell a warning from a statement by its text.
type Line struct {
	// Warning: the line warns; the text plan prefixes it "warning: ",
	// the Markdown plan labels it, and the JSON, CSV and Markdown plans
	// repeat it on stderr.
	Warning bool
	// Text is the line without prefix or final full stop.
	Text string
}

// warningPrefix starts a warning line of the text plan.
const warningPrefix = "warning: "

// String is the line as the text plan prints it.
func (l Line) String() string {
	if l.Warning {
		return warningPrefix + l.Text
	}
	return l.Text
}

// Markdown is the line as the Markdown plan writes it: a quoted paragraph,
// a warning labelled as such, a statement with a capital letter, each
// with its full stop; nothing for a line without text.
func (l Line) Markdown() string {
	if l.Warning {
		return "> **Warning:** " + cliout.MDEscape(l.Text) + ".\n\n"
	}
	if l.Text == "" {
		return ""
	}
	return "> " + strings.ToUpper(l.Text[:1]) + cliout.MDEscape(l.Text[1:]) + ".\n\n"
}
