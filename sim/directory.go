package sim

import "strings"

// DirectoryFormat says what the model is shown of the deferred tools.
type DirectoryFormat interface {
	// ShowsNames reports whether the model sees a directory naming the
	// deferred tools. Without one there is no directory block, the model
	// never asks for a tool by its exact name, and a ranked search's last
	// miss is unrecovered.
	ShowsNames() bool
	// Render writes the directory of servers, in registry order. Its text
	// is counted with the content counter and memoised: it must be a
	// function of its arguments.
	Render(sb *strings.Builder, servers []DirectoryServer)
}

// DirectoryServer is one server of the registry as a directory shows it.
type DirectoryServer struct {
	Name string
	// Listed is false while the runtime has not listed the server's tools
	// (lazy discovery); Tools is then empty.
	Listed bool
	// Tools are the server's deferrable tools, in canonical order.
	Tools []*Tool
}

// DirectoryFactory builds a directory format from a strategy's directory
// block and the run's routing domains (nil when it has none).
type DirectoryFactory func(cfg Directory, domains Domains) (DirectoryFormat, error)

// Domains groups tools into routing domains (implemented over server
// routing descriptions by srd.Set; see internal/runner).
type Domains interface {
	// DomainOf names the domain of a tool ("" when it has none).
	DomainOf(server, tool string) string
	// DirectoryText renders the directory of the given (server, tool)
	// pairs grouped by domain with each domain's summary.
	DirectoryText(tools [][2]string) string
	// ActivationNotice is the text added when a domain's first tool loads.
	ActivationNotice(domain string) string
}

// WriteUnlisted writes the line the built-in formats show for a server
// whose tools are not listed yet.
func WriteUnlisted(sb *strings.Builder, server string) {
	sb.WriteString(server + ": tools not listed yet\n")
}

type noDirectory struct{}

func (noDirectory) ShowsNames() bool                           { return false }
func (noDirectory) Render(*strings.Builder, []DirectoryServer) {}

// lineDirectory writes each listed server's tools, one line each.
type lineDirectory struct {
	line   func(sb *strings.Builder, t *Tool)
	header bool // a "server:" heading before a server's first tool
}

func (lineDirectory) ShowsNames() bool { return true }

func (d lineDirectory) Render(sb *strings.Builder, servers []DirectoryServer) {
	for _, s := range servers {
		if !s.Listed {
			WriteUnlisted(sb, s.Name)
			continue
		}
		if d.header && len(s.Tools) > 0 {
			sb.WriteString(s.Name + ":\n")
		}
		for _, t := range s.Tools {
			d.line(sb, t)
		}
	}
}

func nameLine(sb *strings.Builder, t *Tool) { sb.WriteString(t.name + "\n") }

// domainDirectory groups the tools by routing domain, after the lines of
// the servers not listed yet.
type domainDirectory struct{ domains Domains }

func (domainDirectory) ShowsNames() bool { return true }

func (d domainDirectory) Render(sb *strings.Builder, servers []DirectoryServer) {
	var refs [][2]string
	for _, s := range servers {
		if !s.Listed {
			WriteUnlisted(sb, s.Name)
			continue
		}
		for _, t := range s.Tools {
			refs = append(refs, [2]string{t.server, t.name})
		}
	}
	if len(refs) > 0 {
		sb.WriteString(d.domains.DirectoryText(refs))
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func registerDirectories(r *Registry) error {
	names := lineDirectory{line: nameLine}
	for _, d := range []struct {
		info Info
		f    DirectoryFactory
	}{
		{Info{Name: dirNone, Description: "no directory: the model cannot name a cold tool, and a ranked search's last miss is unrecovered"},
			func(Directory, Domains) (DirectoryFormat, error) { return noDirectory{}, nil }},
		{Info{Name: DirNames, Description: "one line per deferred tool: its name"},
			func(Directory, Domains) (DirectoryFormat, error) { return names, nil }},
		{Info{Name: dirNamesDesc, Description: "one line per deferred tool: its name and the first line of its description, cut",
			Params: []Param{{Name: "directory.desc_chars", Type: "int", Default: "80", Meaning: "bytes of description kept (0: all of the first line)", Zero: "all of the first line"}}},
			func(cfg Directory, _ Domains) (DirectoryFormat, error) {
				width := cfg.DescChars
				return lineDirectory{line: func(sb *strings.Builder, t *Tool) {
					d := firstLine(t.desc)
					if width > 0 && len(d) > width {
						d = d[:width]
					}
					sb.WriteString(t.name + ": " + d + "\n")
				}}, nil
			}},
		{Info{Name: dirByServer, Description: "deferred tools' names grouped under their server's name"},
			func(Directory, Domains) (DirectoryFormat, error) {
				return lineDirectory{header: true, line: func(sb *strings.Builder, t *Tool) { sb.WriteString("  " + t.name + "\n") }}, nil
			}},
		{Info{Name: dirByDomain, Description: "deferred tools grouped by routing domain with each domain's summary (docs/srd.md); names when the run has no domains"},
			func(_ Directory, domains Domains) (DirectoryFormat, error) {
				if domains == nil {
					return names, nil
				}
				return domainDirectory{domains}, nil
			}},
	} {
		if err := r.RegisterDirectory(d.info, d.f); err != nil {
			return err
		}
	}
	return nil
}
