package runner

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	defaultdata "github.com/defersim/defersim/scenarios/default"
	"github.com/defersim/defersim/srd"
)

// TestSRDFilesReadAsPaths pins Config.SRDFiles, the routing descriptions a
// caller read through another filesystem (the Beam pipeline's URLs): the
// same files give the same SRDs, count and hash as the paths they were
// read from, and a file over srd.MaxFileSize or with a problem stops the
// run naming the file, as when the run opens it.
func TestSRDFilesReadAsPaths(t *testing.T) {
	dir := filepath.Join("testdata", "srd-default")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []SRDFile
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, SRDFile{Name: name, Data: data, Size: int64(len(data))})
	}
	cat, err := loadCatalogs([]Source{{Path: "embedded:catalog", FS: defaultdata.FS(), Name: "catalog"}})
	if err != nil {
		t.Fatal(err)
	}
	wantSRDs, wantInfo, err := runSRDs([]string{dir}, nil, cat)
	if err != nil {
		t.Fatal(err)
	}
	gotSRDs, gotInfo, err := runSRDs([]string{dir}, files, cat)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotSRDs, wantSRDs) {
		t.Errorf("SRDs from files differ from those read from %s", dir)
	}
	if !reflect.DeepEqual(gotInfo, wantInfo) || gotInfo.Count != 6 {
		t.Errorf("info from files %+v, from the paths %+v (want 6 SRDs)", *gotInfo, *wantInfo)
	}

	for _, tc := range []struct {
		name string
		file SRDFile
		want string
	}{
		{"too large", SRDFile{Name: "gs://b/big.yaml", Data: make([]byte, srd.MaxFileSize+1), Size: -1},
			"gs://b/big.yaml: file is more than the 1048576 bytes allowed"},
		{"not an SRD", SRDFile{Name: "gs://b/bad.yaml", Data: []byte("server_id: [\n"), Size: 13}, "gs://b/bad.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runSRDs([]string{"gs://b"}, []SRDFile{tc.file}, cat)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to name %q", err, tc.want)
			}
		})
	}
}
