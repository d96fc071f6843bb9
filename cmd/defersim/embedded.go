package main

import "io/fs"

// embeddedData returns the embedded default data set (catalog/ and trace.jsonl.gz).
func embeddedData() fs.FS { return nil }
