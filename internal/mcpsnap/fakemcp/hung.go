package fakemcp

import (
	"context"
	"os"
	"strings"
	"time"
)

// hungKind is the pid file's kind for a fake that has started hanging.
const hungKind = "hung"

// hungPoll is how often HungContext reads the pid file.
const hungPoll = 10 * time.Millisecond

// HungContext returns a context that ends as a deadline does (its Err is
// context.DeadlineExceeded) once the fake writing pidFile (EnvPIDFile)
// reports that it hangs, and stop, which releases the context's poller. A
// test of a capture's timeout passes it instead of a short timeout: the
// capture then times out when the server is known to hang, at the step
// under test and with its stderr lines written, however fast or slow the
// machine starts it. The poller has no deadline of its own: a fake that
// never hangs leaves the capture to its own timeout.
func HungContext(pidFile string) (ctx context.Context, stop func()) {
	c := &hungContext{Context: context.Background(), done: make(chan struct{})}
	quit := make(chan struct{})
	go func() {
		tick := time.NewTicker(hungPoll)
		defer tick.Stop()
		for {
			if b, err := os.ReadFile(pidFile); err == nil && strings.Contains("\n"+string(b), "\n"+hungKind+" ") {
				close(c.done)
				return
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	return c, func() { close(quit) }
}

// hungContext is a context without values or deadline whose Done channel
// is closed by HungContext's poller.
type hungContext struct {
	context.Context
	done chan struct{}
}

func (c *hungContext) Done() <-chan struct{} { return c.done }

func (c *hungContext) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
