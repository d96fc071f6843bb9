package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/defersim/defersim/internal/atomicfile"
)

// File names Render writes inside its directory.
const (
	ResultsFile  = "results.json"
	HTMLFile     = "report.html"
	MarkdownFile = "report.md"
	PlotsDir     = "plots"
)

// RenderOptions tunes Render.
type RenderOptions struct {
	// WriteResults also writes results.json.
	WriteResults bool
}

// Render writes the report of res into dir: report.html (self-contained),
// report.md, plots/*.png and plots/*.svg, and results.json when asked. Every
// file is written atomically; the output depends only on res.
func Render(res *Results, dir string, opts RenderOptions) error {
	if res == nil {
		return errors.New("render report: nil results")
	}
	if err := res.check(); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if opts.WriteResults {
		if err := WriteResults(filepath.Join(dir, ResultsFile), res); err != nil {
			return err
		}
	}
	plots, err := writeFigures(figures(res), filepath.Join(dir, PlotsDir))
	if err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	html, err := htmlReport(res, plots)
	if err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, HTMLFile), html, 0o644); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	links := make([]plotLink, len(plots))
	for i, p := range plots {
		links[i] = plotLink{Name: p.Name, Title: p.Title}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, MarkdownFile), markdownReport(res, links), 0o644); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}
