package tracing_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/codeexec/codeexec/tracing"
)

// exporter records the batches it is given and tells each on exports;
// while hold is set, an export waits until it is closed.
type exporter struct {
	hold    chan struct{}
	exports chan int // the size of each batch, as it is exported

	mu       sync.Mutex
	batches  []int
	shutdown bool
}

func newExporter() *exporter { return &exporter{exports: make(chan int, 64)} }

func (e *exporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.exports <- len(spans)
	if e.hold != nil {
		select {
		case <-e.hold:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.batches = append(e.batches, len(spans))
	return nil
}

func (e *exporter) Shutdown(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shutdown = true
	return nil
}

// next waits for the next export and returns its batch's size. The
// minute only turns an export that never comes into a failure.
func (e *exporter) next(t *testing.T) int {
	t.Helper()
	select {
	case n := <-e.exports:
		return n
	case <-time.After(time.Minute):
		t.Fatal("no export")
		return 0
	}
}

// exported is the number of spans exported, and the largest batch.
func (e *exporter) exported() (total, largest int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.batches {
		total += n
		largest = max(largest, n)
	}
	return total, largest
}

// recordOnly samples nothing but records every span: its spans end
// unsampled.
type recordOnly struct{}

func (recordOnly) ShouldSample(sdktrace.SamplingParameters) sdktrace.SamplingResult {
	return sdktrace.SamplingResult{Decision: sdktrace.RecordOnly}
}

func (recordOnly) Description() string { return "record only" }

// TestBatchProcessor checks when NewBatchProcessor exports and what: a
// full batch at once, a partial one when the delay is up, everything
// waiting on ForceFlush and Shutdown, in batches of at most the batch
// size; spans past a full queue dropped and reported; unsampled spans and
// spans that end after Shutdown not at all.
func TestBatchProcessor(t *testing.T) {
	t.Parallel()
	const hour = time.Hour // a delay that never comes in a test
	for _, tc := range []struct {
		name string
		opts tracing.BatchOptions
		// run ends spans with end(n), which ends n spans, and says how
		// many were exported and dropped in all; report takes the errors
		// of the exports it makes.
		run                      func(t *testing.T, e *exporter, bp sdktrace.SpanProcessor, end func(n int), report func(error)) (exported, dropped int)
		unsampled, afterShutdown bool
	}{
		{"a full batch at once", tracing.BatchOptions{ScheduleDelay: hour, MaxExportBatchSize: 3},
			func(t *testing.T, e *exporter, _ sdktrace.SpanProcessor, end func(int), _ func(error)) (int, int) {
				end(3)
				if n := e.next(t); n != 3 {
					t.Errorf("batch of %d, want 3", n)
				}
				return 3, 0
			}, false, false},
		{"a partial batch after the delay", tracing.BatchOptions{ScheduleDelay: time.Millisecond},
			func(t *testing.T, e *exporter, _ sdktrace.SpanProcessor, end func(int), _ func(error)) (int, int) {
				end(1)
				if n := e.next(t); n != 1 {
					t.Errorf("batch of %d, want 1", n)
				}
				return 1, 0
			}, false, false},
		{"ForceFlush, in batches", tracing.BatchOptions{ScheduleDelay: hour, MaxExportBatchSize: 2},
			func(t *testing.T, _ *exporter, bp sdktrace.SpanProcessor, end func(int), _ func(error)) (int, int) {
				end(5)
				if err := bp.ForceFlush(context.Background()); err != nil {
					t.Error(err)
				}
				return 5, 0
			}, false, false},
		{"a full queue drops", tracing.BatchOptions{ScheduleDelay: hour, MaxQueueSize: 2},
			func(t *testing.T, e *exporter, bp sdktrace.SpanProcessor, end func(int), report func(error)) (int, int) {
				e.hold = make(chan struct{})
				end(2) // a full batch (the queue's size): exported, held
				e.next(t)
				end(3) // two wait, one is dropped
				close(e.hold)
				if err := bp.ForceFlush(context.Background()); err != nil {
					report(err) // the drop, unless the export on schedule told it
				}
				return 4, 1
			}, false, false},
		{"unsampled spans", tracing.BatchOptions{ScheduleDelay: hour},
			func(t *testing.T, _ *exporter, bp sdktrace.SpanProcessor, end func(int), _ func(error)) (int, int) {
				end(4)
				if err := bp.ForceFlush(context.Background()); err != nil {
					t.Error(err)
				}
				return 0, 0
			}, true, false},
		{"Shutdown exports the rest", tracing.BatchOptions{ScheduleDelay: hour},
			func(t *testing.T, _ *exporter, bp sdktrace.SpanProcessor, end func(int), _ func(error)) (int, int) {
				end(3)
				if err := bp.Shutdown(context.Background()); err != nil {
					t.Error(err)
				}
				end(2) // after Shutdown: not taken
				return 3, 0
			}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newExporter()
			var (
				mu     sync.Mutex
				errs   []error
				report = func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }
			)
			opts := tc.opts
			opts.OnError = report
			bp := tracing.NewBatchProcessor(e, opts)
			tpOpts := []sdktrace.TracerProviderOption{sdktrace.WithSpanProcessor(bp)}
			if tc.unsampled {
				tpOpts = append(tpOpts, sdktrace.WithSampler(recordOnly{}))
			}
			tp := sdktrace.NewTracerProvider(tpOpts...)
			tracer := tp.Tracer("test")
			end := func(n int) {
				for range n {
					_, s := tracer.Start(context.Background(), "span")
					s.End()
				}
			}
			wantExported, wantDropped := tc.run(t, e, bp, end, report)
			if !tc.afterShutdown {
				if err := bp.ForceFlush(context.Background()); err != nil {
					report(err)
				}
			}
			if err := tp.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
			total, largest := e.exported()
			if total != wantExported {
				t.Errorf("%d spans exported, want %d", total, wantExported)
			}
			if batch := max(tc.opts.MaxExportBatchSize, 0); batch > 0 && largest > batch {
				t.Errorf("a batch of %d, over the batch size %d", largest, batch)
			}
			dropped := 0
			for _, err := range errs {
				if strings.Contains(err.Error(), "1 spans dropped") {
					dropped++
				} else {
					t.Errorf("error reported: %v", err)
				}
			}
			if dropped != wantDropped {
				t.Errorf("%d drops reported (%v), want %d", dropped, errs, wantDropped)
			}
			if !e.shutdown {
				t.Error("the exporter was not shut down")
			}
		})
	}
}

// TestBatchOptionsFromEnv checks the OTEL_BSP_* variables: each sets its
// option, in milliseconds for the times; one that is not a positive
// integer is an error.
func TestBatchOptionsFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want tracing.BatchOptions
		err  string
	}{
		{"none", nil, tracing.BatchOptions{}, ""},
		{"all", map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "200", "OTEL_BSP_EXPORT_TIMEOUT": "1000", "OTEL_BSP_MAX_QUEUE_SIZE": "64", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "16"},
			tracing.BatchOptions{ScheduleDelay: 200 * time.Millisecond, ExportTimeout: time.Second, MaxQueueSize: 64, MaxExportBatchSize: 16}, ""},
		{"not a number", map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "many"}, tracing.BatchOptions{}, "OTEL_BSP_MAX_QUEUE_SIZE=many: want a positive integer"},
		{"zero", map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "0"}, tracing.BatchOptions{}, "OTEL_BSP_SCHEDULE_DELAY=0: want a positive integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{"OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_EXPORT_TIMEOUT", "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"} {
				t.Setenv(v, tc.env[v])
			}
			got, err := tracing.BatchOptionsFromEnv()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got.ScheduleDelay != tc.want.ScheduleDelay || got.ExportTimeout != tc.want.ExportTimeout ||
				got.MaxQueueSize != tc.want.MaxQueueSize || got.MaxExportBatchSize != tc.want.MaxExportBatchSize {
				t.Errorf("got %+v, %v, want %+v", got, err, tc.want)
			}
		})
	}
}
