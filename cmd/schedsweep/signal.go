package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// errInterrupted is returned, wrapped in what was saved, when Ctrl-C or
// SIGTERM stopped a sweep or a download; run exits with exitInterrupted.
var errInterrupted = errors.New("interrupted")

// interruption is the cause of a context that notifyContext cancelled: the
// signal received. It is errInterrupted, so that run knows it, and names
// the signal, so that a log (a Slurm job's) says whether SIGINT (Ctrl-C) or a
// SIGTERM (scancel, a requeue, the time limit) stopped the command.
type interruption struct{ sig os.Signal }

func (i interruption) Error() string {
	if i.sig == syscall.SIGTERM {
		return errInterrupted.Error() + " by SIGTERM"
	}
	return errInterrupted.Error() + " by SIGINT"
}

func (i interruption) Is(target error) bool { return target == errInterrupted }

// notifyContext returns a context cancelled by the first SIGINT or SIGTERM,
// with an interruption naming it as its cause (context.Cause), and a stop
// function that ends the watch; a second signal after stop acts as usual.
func notifyContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			cancel(interruption{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// interrupted is the error to wrap when ctx, from notifyContext, ended a
// command: its interruption, or errInterrupted if it has none.
func interrupted(ctx context.Context) error {
	var i interruption
	if errors.As(context.Cause(ctx), &i) {
		return i
	}
	return errInterrupted
}
