package runner

import (
	"io"
	"io/fs"
	"os"
	"sync/atomic"
)

// Progress is told how far a run is: bytes of trace input read so far and
// sessions replayed. Calls come from one goroutine.
type Progress interface {
	Update(bytesRead, replayed int64)
}

// TraceBytes is the size of the trace files, the total a run's progress is
// measured against (0 when a size is unknown).
func TraceBytes(srcs []Source) int64 {
	var n int64
	for _, s := range srcs {
		var st fs.FileInfo
		var err error
		if s.FS != nil {
			st, err = fs.Stat(s.FS, s.Name)
		} else {
			st, err = os.Stat(s.Path)
		}
		if err != nil || !st.Mode().IsRegular() {
			return 0
		}
		n += st.Size()
	}
	return n
}

// countingReader counts the bytes read through it into n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}
