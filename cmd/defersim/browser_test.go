package main

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumBinary finds a headless-capable Chromium ("" when none).
func chromiumBinary() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// probeScript runs first in the page: it records window errors (scripts
// and resources that fail to load) and console.error calls, and after
// load writes them, the page's widths, the elements that stick out of it
// and the scrolling tables into a <pre id="defersim-probe"> as JSON.
const probeScript = `<script>
window.__errs = [];
window.addEventListener('error', function (e) {
  var t = e.target || {};
  __errs.push('error: ' + (e.message || t.src || t.href || t.tagName));
}, true);
var __ce = console.error;
console.error = function () { __errs.push('console.error: ' + Array.prototype.join.call(arguments, ' ')); __ce.apply(console, arguments); };
window.addEventListener('load', function () {
  var d = document.documentElement;
  var wide = [], scrolling = [];
  document.querySelectorAll('body *').forEach(function (el) {
    if (el.closest('.scroll') === null && el.getBoundingClientRect().right > d.clientWidth + 1) {
      wide.push(el.tagName + '.' + el.className);
    }
  });
  document.querySelectorAll('.scroll').forEach(function (el) {
    if (el.scrollWidth > el.clientWidth + 1) { scrolling.push(el.firstElementChild.tagName + ' ' + el.scrollWidth + '>' + el.clientWidth); }
  });
  var broken = 0;
  for (var i = 0; i < document.images.length; i++) {
    var im = document.images[i];
    if (!im.complete || im.naturalWidth === 0) { broken++; }
  }
  var pre = document.createElement('pre');
  pre.id = 'defersim-probe';
  pre.textContent = JSON.stringify({scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, errors: __errs,
    wide: wide.slice(0, 10), scrolling: scrolling, images: document.images.length, broken: broken});
  document.body.appendChild(pre);
});
</script>`

type probe struct {
	ScrollWidth, ClientWidth int
	Errors, Wide, Scrolling  []string
	Images, Broken           int
}

// TestReportHTMLInChromium renders the default run's report.html in
// headless Chromium at 1280 px and fails on console errors, images that do
// not load, horizontal overflow of the page, or a table that has to scroll
// at that width. Without Chromium it skips, except in CI (CI=true), where
// .ci/run installs Debian's chromium and its absence is a failure.
func TestReportHTMLInChromium(t *testing.T) {
	bin := chromiumBinary()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("Chromium is not installed: .ci/run installs Debian's chromium package for this test")
		}
		t.Skip("Chromium not found (Debian: apt-get install -y chromium): skipping the browser check of report.html")
	}
	if testing.Short() {
		t.Skip("replays the embedded default")
	}
	dir := t.TempDir()
	if _, errs, code := cliIn(t, nil, "-q", "-o", dir); code != 0 {
		t.Fatalf("default run: exit %d: %s", code, errs)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(page), "<head>")
	if i < 0 {
		t.Fatal("report.html has no <head>")
	}
	probed := string(page[:i+len("<head>")]) + probeScript + string(page[i+len("<head>"):])
	probePath := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probePath, []byte(probed), 0o644); err != nil {
		t.Fatal(err)
	}
	p := runProbe(t, bin, probePath)
	if len(p.Errors) > 0 {
		t.Errorf("console errors: %q", p.Errors)
	}
	if p.Images < 6 || p.Broken > 0 {
		t.Errorf("%d images, %d did not load", p.Images, p.Broken)
	}
	if p.ScrollWidth > p.ClientWidth {
		t.Errorf("the page overflows horizontally at 1280 px: scrollWidth %d > clientWidth %d; elements sticking out: %q",
			p.ScrollWidth, p.ClientWidth, p.Wide)
	}
	if len(p.Scrolling) > 0 {
		t.Errorf("tables that do not fit at 1280 px: %q", p.Scrolling)
	}
}

var probeRE = regexp.MustCompile(`(?s)<pre id="defersim-probe">(.*?)</pre>`)

// runProbe loads path in headless Chromium at 1280 px (a fresh profile,
// no network services) and returns what the probe script found.
func runProbe(t *testing.T, bin, path string) probe {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(), "--window-size=1280,900", "--virtual-time-budget=10000",
		"--dump-dom", "file://"+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := probeRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe did not run (no result in the page); chromium said:\n%s", stderr.String())
	}
	var p probe
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &p); err != nil {
		t.Fatalf("probe result: %v: %s", err, m[1])
	}
	return p
}
