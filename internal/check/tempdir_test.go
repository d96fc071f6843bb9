package check

import (
	"os"
	"testing"
)

var testTemp string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "defersim-check-")
	if err != nil {
		panic(err)
	}
	testTemp = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func tempDir() (string, error) { return testTemp, nil }
