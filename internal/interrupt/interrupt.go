// Package interrupt gives commands a context that the first SIGINT or
// SIGTERM cancels, as defersim run and defersim-beam stop on Ctrl-C: the
// command says what it does about it and a second signal stops the
// process at once.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Context returns a context cancelled by the first SIGINT or SIGTERM,
// after which it says on w "\nCOMMAND: SIGNAL: WHAT (again to stop at
// once)" and restores the signals' default action (a second one stops the
// process at once). The cancel function stops listening. A nil parent is
// context.Background().
func Context(parent context.Context, w io.Writer, command, what string) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs)
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			fmt.Fprintf(w, "\n%s: %v: %s (again to stop at once)\n", command, sig, what)
			cancel()
		case <-done:
			signal.Stop(sigs)
		}
	}()
	return ctx, func() {
		close(done)
		cancel()
	}
}
