// Package chart draws defersim's report figures with gonum.org/v1/plot:
// horizontal (stacked) bar panels, line charts, and a scatter with
// confidence whiskers and a highlighted front. Every figure has the same
// size, a title across the top, its legend outside the plot area on the
// right, and is encoded to PNG and SVG with deterministic bytes. The package
// knows nothing about strategies or metrics: callers pass labelled numbers.
package chart
