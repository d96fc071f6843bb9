package main

import (
	"io/fs"

	defaultdata "github.com/defersim/defersim/scenarios/default"
)

// embeddedData returns the embedded default data set (catalog/ and trace.jsonl.gz).
func embeddedData() fs.FS { return defaultdata.FS() }
