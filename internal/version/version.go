// Package version says which defersim build is running, from the build
// information the Go toolchain embeds in every binary (runtime/debug): the
// module version when installed with `go install …@vX`, else the VCS
// revision stamped by `go build` in a checkout, else "(devel)".
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Info describes the running build.
type Info struct {
	// Product is the defersim version: a module version (v1.2.3 or a
	// pseudo-version), "devel+REVISION[-dirty]" for a build from a checkout
	// with VCS stamping, or "(devel)".
	Product string `json:"product"`
	// Go is the toolchain that built the binary (runtime.Version()).
	Go string `json:"go"`
	// Revision and Time are the VCS revision and commit time, when stamped.
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
}

// Get returns the running build's version information.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Product: "(devel)", Go: runtime.Version()}
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo derives Info from bi.
func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Product: bi.Main.Version, Go: bi.GoVersion}
	if in.Go == "" {
		in.Go = runtime.Version()
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	if in.Product == "" || in.Product == "(devel)" {
		in.Product = "(devel)"
		if in.Revision != "" {
			rev := in.Revision
			if len(rev) > 12 {
				rev = rev[:12]
			}
			in.Product = "devel+" + rev
			if in.Modified {
				in.Product += "-dirty"
			}
		}
	}
	// A module version with "+dirty" (Go 1.24+ stamps it) already says so.
	in.Modified = in.Modified || strings.HasSuffix(in.Product, "+dirty")
	return in
}

// String is the one-line form printed by `defersim version`.
func (in Info) String() string {
	s := "defersim " + in.Product + " (" + in.Go
	if in.Revision != "" {
		s += ", revision " + in.Revision
		if in.Time != "" {
			s += " of " + in.Time
		}
		if in.Modified {
			s += ", modified"
		}
	}
	return s + ")"
}
