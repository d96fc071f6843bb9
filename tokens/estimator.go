package tokens

import (
	"math"
	"strconv"
)

// DefaultBytesPerToken is the anchor runtime's conservative ratio.
const DefaultBytesPerToken = 3.5

// Estimator estimates tokens as ceil(len(b) / BytesPerToken). Applied per
// item (one call per tool), this reproduces the anchor runtime, which rounds
// up per tool and sums.
type Estimator struct {
	bytesPerToken float64
	name          string
}

// NewEstimator returns an estimator with the given ratio; a ratio that is not
// a positive finite number falls back to DefaultBytesPerToken.
func NewEstimator(bytesPerToken float64) *Estimator {
	if !(bytesPerToken > 0) || math.IsInf(bytesPerToken, 0) {
		bytesPerToken = DefaultBytesPerToken
	}
	return &Estimator{
		bytesPerToken: bytesPerToken,
		name:          "bytes/" + strconv.FormatFloat(bytesPerToken, 'f', -1, 64),
	}
}

// Name returns "bytes/N", e.g. "bytes/3.5".
func (e *Estimator) Name() string { return e.name }

// BytesPerToken returns the ratio.
func (e *Estimator) BytesPerToken() float64 { return e.bytesPerToken }

// Count returns ceil(len(b) / ratio); 0 for empty input.
func (e *Estimator) Count(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	return int64(math.Ceil(float64(len(b)) / e.bytesPerToken))
}
