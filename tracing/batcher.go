package tracing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// BatchOptions configure NewBatchProcessor: the OpenTelemetry batch span
// processor's parameters, whose defaults (the specification's) the zero
// values take.
type BatchOptions struct {
	// ScheduleDelay is the longest a span waits to be exported (default
	// 5 s; OTEL_BSP_SCHEDULE_DELAY, in milliseconds).
	ScheduleDelay time.Duration
	// ExportTimeout bounds one export (default 30 s;
	// OTEL_BSP_EXPORT_TIMEOUT, in milliseconds).
	ExportTimeout time.Duration
	// MaxQueueSize is how many ended spans wait at most; more are dropped
	// (default 2048; OTEL_BSP_MAX_QUEUE_SIZE).
	MaxQueueSize int
	// MaxExportBatchSize is the most spans one export carries, and the
	// number of waiting spans that starts an export before the delay is
	// up (default 512, at most MaxQueueSize;
	// OTEL_BSP_MAX_EXPORT_BATCH_SIZE).
	MaxExportBatchSize int
	// OnError is told the errors of the exports made on schedule, and
	// how many spans were dropped (default otel.Handle, the global
	// handler; ForceFlush and Shutdown return theirs).
	OnError func(error)
}

// The defaults of BatchOptions.
const (
	defaultScheduleDelay      = 5 * time.Second
	defaultExportTimeout      = 30 * time.Second
	defaultMaxQueueSize       = 2048
	defaultMaxExportBatchSize = 512
)

// withDefaults fills the zero fields of o with the defaults and bounds the
// batch by the queue.
func (o BatchOptions) withDefaults() BatchOptions {
	if o.ScheduleDelay <= 0 {
		o.ScheduleDelay = defaultScheduleDelay
	}
	if o.ExportTimeout <= 0 {
		o.ExportTimeout = defaultExportTimeout
	}
	if o.MaxQueueSize <= 0 {
		o.MaxQueueSize = defaultMaxQueueSize
	}
	if o.MaxExportBatchSize <= 0 {
		o.MaxExportBatchSize = defaultMaxExportBatchSize
	}
	o.MaxExportBatchSize = min(o.MaxExportBatchSize, o.MaxQueueSize)
	if o.OnError == nil {
		o.OnError = otel.Handle
	}
	return o
}

// BatchOptionsFromEnv reads BatchOptions from the OTEL_BSP_* environment
// variables; one that is set must be a positive integer.
func BatchOptionsFromEnv() (BatchOptions, error) {
	var o BatchOptions
	for _, v := range []struct {
		name string
		set  func(int)
	}{
		{"OTEL_BSP_SCHEDULE_DELAY", func(n int) { o.ScheduleDelay = time.Duration(n) * time.Millisecond }},
		{"OTEL_BSP_EXPORT_TIMEOUT", func(n int) { o.ExportTimeout = time.Duration(n) * time.Millisecond }},
		{"OTEL_BSP_MAX_QUEUE_SIZE", func(n int) { o.MaxQueueSize = n }},
		{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", func(n int) { o.MaxExportBatchSize = n }},
	} {
		s := os.Getenv(v.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return BatchOptions{}, fmt.Errorf("tracing: %s=%s: want a positive integer", v.name, s)
		}
		v.set(n)
	}
	return o, nil
}

// batcher is the span processor of NewBatchProcessor.
type batcher struct {
	exp  sdktrace.SpanExporter
	opts BatchOptions

	mu      sync.Mutex
	queue   []sdktrace.ReadOnlySpan // ended spans not yet exported
	dropped int                     // spans dropped since the last export
	stopped bool

	exporting sync.Mutex    // held by the export in progress
	full      chan struct{} // the queue holds a batch (capacity 1)
	stop      chan struct{} // closed by Shutdown
	done      chan struct{} // closed when the export goroutine ended
	stopOnce  sync.Once
	stopErr   error
}

// NewBatchProcessor returns the span processor FromEnv exports with: it
// batches ended spans and exports them with exp as the OpenTelemetry
// batch span processor does (sdktrace.NewBatchSpanProcessor, whose
// options and environment variables it takes), but without waking a
// goroutine for each span: a span ending appends to a queue under a
// lock, and the export goroutine wakes when a batch is full or the
// schedule delay is up. A run of codeexec ends a span for each tool call
// and one for itself, on the run's path. Spans that end while the queue
// is full are dropped and reported (BatchOptions.OnError) with the next
// export.
func NewBatchProcessor(exp sdktrace.SpanExporter, opts BatchOptions) sdktrace.SpanProcessor {
	b := &batcher{
		exp: exp, opts: opts.withDefaults(),
		full: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go b.loop()
	return b
}

// OnStart implements sdktrace.SpanProcessor; it does nothing.
func (b *batcher) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd implements sdktrace.SpanProcessor: it queues a sampled span.
func (b *batcher) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	b.mu.Lock()
	switch {
	case b.stopped:
	case len(b.queue) >= b.opts.MaxQueueSize:
		b.dropped++
	default:
		b.queue = append(b.queue, s)
		if len(b.queue) == b.opts.MaxExportBatchSize {
			select {
			case b.full <- struct{}{}:
			default:
			}
		}
	}
	b.mu.Unlock()
}

// loop exports the queue each time it holds a batch or the schedule delay
// is up, until Shutdown.
func (b *batcher) loop() {
	defer close(b.done)
	timer := time.NewTimer(b.opts.ScheduleDelay)
	defer timer.Stop()
	for {
		select {
		case <-b.full:
		case <-timer.C:
		case <-b.stop:
			return
		}
		if err := b.export(context.Background()); err != nil {
			b.opts.OnError(err)
		}
		timer.Reset(b.opts.ScheduleDelay)
	}
}

// export exports the queued spans, in batches of at most
// MaxExportBatchSize, each within ExportTimeout and ctx.
func (b *batcher) export(ctx context.Context) error {
	b.exporting.Lock()
	defer b.exporting.Unlock()
	b.mu.Lock()
	queue, dropped := b.queue, b.dropped
	b.queue, b.dropped = nil, 0
	b.mu.Unlock()
	var errs []error
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("tracing: %d spans dropped: the export queue of %d was full", dropped, b.opts.MaxQueueSize))
	}
	for rest := queue; len(rest) > 0; {
		n := min(len(rest), b.opts.MaxExportBatchSize)
		ectx, cancel := context.WithTimeout(ctx, b.opts.ExportTimeout)
		if err := b.exp.ExportSpans(ectx, rest[:n]); err != nil {
			errs = append(errs, fmt.Errorf("tracing: export: %w", err))
		}
		cancel()
		rest = rest[n:]
	}
	if queue != nil {
		// The queue's array serves again, emptied, unless spans that
		// ended meanwhile started another.
		clear(queue)
		b.mu.Lock()
		if b.queue == nil {
			b.queue = queue[:0]
		}
		b.mu.Unlock()
	}
	return errors.Join(errs...)
}

// ForceFlush implements sdktrace.SpanProcessor: it exports the queued
// spans now.
func (b *batcher) ForceFlush(ctx context.Context) error {
	return b.export(ctx)
}

// Shutdown implements sdktrace.SpanProcessor: it stops taking spans,
// exports those queued and shuts the exporter down. Only the first call
// does anything; later ones return its error.
func (b *batcher) Shutdown(ctx context.Context) error {
	b.stopOnce.Do(func() {
		b.mu.Lock()
		b.stopped = true
		b.mu.Unlock()
		close(b.stop)
		select {
		case <-b.done:
		case <-ctx.Done():
			// An export in progress outlasts the caller's patience.
			b.stopErr = fmt.Errorf("tracing: shutdown: %w", ctx.Err())
			return
		}
		b.stopErr = errors.Join(b.export(ctx), b.exp.Shutdown(ctx))
	})
	return b.stopErr
}
