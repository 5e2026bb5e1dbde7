package isolation

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codeexec/codeexec/bindings"
	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/internal/workerproc"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// Environment variables a Pool sets for its workers.
const (
	// EnvWorker marks a process as a worker ("1"); see IsWorker.
	EnvWorker = workerproc.EnvWorker
	// envMemory is the worker's memory limit in bytes.
	envMemory = workerproc.EnvMemory
	// envWarm asks a pre-started worker to warm its engine up before it
	// reports ready.
	envWarm = "CODEEXEC_WORKER_WARM"
)

// The file descriptors a worker inherits for the protocol.
const (
	fdFromParent = 3
	fdToParent   = 4
)

// Exit codes of ServeWorker.
const (
	exitOK         = 0
	exitSetup      = 2 // the worker could not start (no pipes, bad environment)
	exitParentGone = 3 // the parent closed the pipe during the run
	// exitMemory: the run's memory limit interrupted it, and native code
	// that an interrupt cannot stop kept allocating (see
	// runtime.Options.OnRunaway): the worker ends itself at once instead of
	// collecting garbage back to back up to its address-space cap.
	exitMemory = 4
)

// maxWorkerProcs caps GOMAXPROCS in a worker. A run is single-threaded
// JavaScript and its tools run in the parent, so a second P buys nothing
// but cross-thread hand-offs: with one, the goroutines of a tool call
// (the loop, the call, the pipe reader) pass control on one thread instead
// of waking another, which took a cross-process round trip from about 80
// to 60 us on a 2-core machine. Timers and the heap watchdog still run
// during a busy loop (Go preempts it), and every OS thread's stack counts
// against the address-space cap.
const maxWorkerProcs = workerproc.MaxProcs

// IsWorker reports whether this process was started by a Pool as a worker.
// It only reads the environment and is cheap; see Main.
func IsWorker() bool { return os.Getenv(EnvWorker) == "1" }

// Main turns the process into a worker when a Pool started it as one: it
// serves the runs its pool sends and exits, never returning. In any other
// process it returns at once. Call it first thing in main, before flags
// are parsed or anything is printed:
//
//	func main() {
//		isolation.Main()
//		// the program as usual
//	}
func Main() {
	if IsWorker() {
		os.Exit(ServeWorker())
	}
}

// ServeWorker is the worker: it caps its own memory, reports ready to its
// parent on the inherited pipes, and runs the snippets it is sent, one at
// a time, each in a fresh VM (or, for a session, every snippet of that
// session in one VM), with the tools forwarded to the parent, sending each
// result back, until the parent closes the pipe between two runs. It
// returns the exit code (0 when the parent closed the pipe or a session
// ended, 2 if it cannot start, 3 if the parent went away during a run or
// broke the protocol). Call it only when IsWorker reports true; Main does
// both.
func ServeWorker() int {
	pipeIn, out, ok := workerPipes()
	if !ok {
		return exitSetup
	}
	// An *os.File that is garbage collected closes its descriptor.
	defer goruntime.KeepAlive(pipeIn)
	defer goruntime.KeepAlive(out)
	spin := &spinReader{f: pipeIn}
	in := bufio.NewReaderSize(spin, readBuffer)
	c := newChildConn(out)
	ready := &message{Type: msgReady, Version: protocolVersion, PID: os.Getpid()}
	memory, err := setupWorker()
	if err != nil {
		ready.Error = err.Error()
		_ = c.send(ready)
		return exitSetup
	}
	if os.Getenv(envWarm) == "1" {
		warmUp()
	}
	if err := c.send(ready); err != nil {
		return exitParentGone
	}
	m, err := readMessage(in)
	if err != nil || m.Type != msgRun || m.Run == nil {
		// io.EOF: the pool was closed before it needed this worker.
		if err == io.EOF {
			return exitOK
		}
		return exitParentGone
	}
	caller := &remoteCaller{c: c, memory: memory, pending: map[uint64]chan *message{}, kick: spin.kick}
	spin.spin = caller.waiting
	if m.Run.Session {
		return serveSession(c, in, caller, m.Run)
	}
	return serve(c, in, caller, m.Run, func(req *runRequest) (*runtime.Result, string) {
		return runtime.Run(context.Background(), req.Source, caller.options(req)), ""
	})
}

// serve serves runs, the first of which is first, each through exec, until
// the parent closes the pipe between two runs or exec says the worker's
// session ended (then the worker exits once that run's done is sent). One
// goroutine reads the pipe for the worker's life: it hands answers to the
// calls waiting for them and run requests to this loop. A pipe that breaks
// during a run leaves nobody to take its result, and a message out of turn
// (a run during a run, an unknown type) is a protocol error: the worker
// exits at once in both cases. Each request brings its own tools: the
// caller's list is replaced before every run.
func serve(c *childConn, in io.Reader, caller *remoteCaller, first *runRequest, exec func(*runRequest) (res *runtime.Result, ended string)) int {
	runs := make(chan *runRequest)
	go func() {
		defer close(runs)
		for {
			m, err := readMessage(in)
			switch {
			case err != nil && caller.idle.Load():
				return
			case err != nil:
				os.Exit(exitParentGone)
			case m.Type == msgResult:
				caller.deliver(m)
			case m.Type == msgRun && m.Run != nil && caller.idle.Load():
				caller.idle.Store(false)
				runs <- m.Run
			default:
				os.Exit(exitParentGone)
			}
		}
	}()
	for req := first; ; {
		if !req.SameTools {
			caller.setTools(req.Tools)
		}
		res, ended := exec(req)
		caller.between()
		caller.idle.Store(true)
		if err := c.sendEnded(res, ended); err != nil {
			return exitParentGone
		}
		if ended != "" {
			return exitOK
		}
		next, ok := <-runs
		if !ok {
			return exitOK
		}
		req = next
	}
}

// workerPipes returns the inherited protocol pipes, if they are open.
func workerPipes() (in, out *os.File, ok bool) {
	in, out = inheritedPipe(fdFromParent, "codeexec-from-parent"), inheritedPipe(fdToParent, "codeexec-to-parent")
	if in == nil || out == nil {
		return nil, nil, false
	}
	return in, out, true
}

// setupWorker applies the worker's limits from its environment and
// returns its memory limit. A pool sets GOMAXPROCS in it unless the pool's
// Env does; a worker started without it is capped here.
func setupWorker() (int64, error) {
	if os.Getenv("GOMAXPROCS") == "" && goruntime.GOMAXPROCS(0) > maxWorkerProcs {
		goruntime.GOMAXPROCS(maxWorkerProcs)
	}
	limit, err := strconv.ParseInt(os.Getenv(envMemory), 10, 64)
	if err != nil || limit <= 0 {
		return 0, fmt.Errorf("worker: %s=%q is not a positive number of bytes", envMemory, os.Getenv(envMemory))
	}
	return limit, limitMemory(limit)
}

// gcTarget is the garbage collector's memory target in a worker whose
// memory limit is limit (debug.SetMemoryLimit): the collector works
// harder as the heap nears it.
func gcTarget(limit int64) int64 { return limit / 4 * 3 }

// heapCeiling is the live heap at which a worker's run ends with the
// memory-limit error (runtime.Options.HeapCeiling): half the limit, since
// Go's collector needs as much room again as the live heap to collect in
// (GOGC 100). Past it, the collector would run back to back up to the hard
// cap, which took seconds of the worker's one CPU before the cap ended the
// run; at it, the run ends at the first collection past it.
func heapCeiling(limit int64) int64 { return limit / 2 }

// stackLimit is the Go stack limit of a worker whose memory limit is limit:
// an eighth of it, between 16 MiB and 256 MiB. Growing a stack copies it, so
// the peak is one and a half times the limit.
func stackLimit(limit int64) int64 {
	return min(max(limit/8, 16<<20), 256<<20)
}

// warmUp runs a small snippet that touches the paths every run takes
// (esbuild's transform, a fresh VM, a bound tool, console formatting), so
// that the worker's one real run does not pay for first use.
func warmUp() {
	b := bindings.New(warmCaller{})
	runtime.Run(context.Background(), warmSnippet, runtime.Options{Setup: b.Setup, Stdout: io.Discard, Stderr: io.Discard})
	goruntime.GC()
}

const warmSnippet = `interface Item { n: number; name?: string }
class Box { #items: Item[] = []; add(i: Item): void { this.#items.push(i); } get size(): number { return this.#items.length; } }
const box = new Box();
const got = await Promise.all([1, 2].map((n) => warm_up(n)));
got.forEach((s, i) => box.add({ n: i, name: s.split(/\s+/)[0] }));
console.log(` + "`${box.size} items`" + `, { got }, [1, "a"], new Map([[1, 2]]));
return { size: box.size, got };
`

// warmCaller is the one tool of the warm-up snippet.
type warmCaller struct{}

func (warmCaller) Tools() []registry.Info {
	return []registry.Info{{
		Name: "warm_up", Description: "Warm up.",
		Parameters:    map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "number"}}},
		CallSignature: "async function warm_up(n: number): Promise<string>",
	}}
}

func (warmCaller) CallTool(context.Context, string, map[string]any, registry.CallOptions) (registry.Result, error) {
	return registry.TextResult("warm words"), nil
}

// childConn is the worker's side of the pipe to its parent. Console output
// is batched: a write that comes outputWindow or more after the last
// output frame is sent at once (a line printed now and then reaches the
// parent as it is printed, and a line printed just before the worker dies
// is not lost); a write that follows sooner waits, with the writes after
// it, for the window's end, outputBatch bytes, or the next message of
// another kind, which always goes after the output printed before it. A
// flood of lines thus crosses in a few frames instead of one frame and one
// system call per line.
type childConn struct {
	frameWriter

	// mu orders output and messages: held to buffer output, and to flush
	// it before any other message.
	mu   sync.Mutex
	kind string // msgStdout or msgStderr: what buf holds
	// buf is the frame of the output not sent yet: outputHeader bytes
	// for its header, filled in when it is sent, then the output. It is
	// written to the pipe as it is, so output is copied once, into it.
	buf      []byte
	lastSent time.Time   // when the last output frame was sent
	timer    *time.Timer // flushes buf at the window's end; nil until needed
	armed    bool        // timer is set
	err      error       // the first error of a flush by the timer
}

const (
	// outputWindow is how long output printed after an output frame waits
	// for more before it is sent.
	outputWindow = time.Millisecond
	// outputBatch is how many bytes of output are sent at once without
	// waiting for the window's end.
	outputBatch = 64 << 10
	// maxOutputData is how many bytes of output one frame holds at most.
	maxOutputData = MaxFrameSize - 1
)

func newChildConn(w io.Writer) *childConn {
	return &childConn{frameWriter: frameWriter{w: w}, buf: make([]byte, outputHeader, outputHeader+outputBatch)}
}

// pending is how many bytes of output wait to be sent.
func (c *childConn) pending() int { return len(c.buf) - outputHeader }

// send sends m after the output printed before it.
func (c *childConn) send(m *message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.flushLocked(); err != nil {
		return err
	}
	return c.frameWriter.send(m)
}

// output sends or buffers console output of kind (see childConn).
func (c *childConn) output(kind string, p string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	if c.pending() > 0 && c.kind != kind {
		if err := c.flushLocked(); err != nil {
			return err
		}
	}
	c.kind = kind
	// A timer armed while nothing waits was armed for output that another
	// message flushed since, and has fired (flushLocked stops the others):
	// it is no reason to wait.
	waiting := c.pending() > 0
	for len(p) > maxOutputData-c.pending() {
		// More than a frame holds (only a console write larger than
		// MaxFrameSize, with an output limit to match, gets here).
		n := maxOutputData - c.pending()
		c.buf = append(c.buf, p[:n]...)
		p = p[n:]
		if err := c.flushLocked(); err != nil {
			return err
		}
	}
	c.buf = append(c.buf, p...)
	if c.pending() >= outputBatch {
		return c.flushLocked()
	}
	if c.armed && waiting {
		return nil // the timer flushes it (and a write need not read the clock)
	}
	wait := outputWindow - time.Since(c.lastSent)
	if wait <= 0 {
		return c.flushLocked()
	}
	if c.armed {
		return nil // the fired timer, waiting for c.mu, flushes it
	}
	c.armed = true
	if c.timer == nil {
		c.timer = time.AfterFunc(wait, c.flushLater)
	} else {
		c.timer.Reset(wait)
	}
	return nil
}

// flushLater flushes the output at the window's end; an error is kept
// for the next write.
func (c *childConn) flushLater() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
	if err := c.flushLocked(); err != nil && c.err == nil {
		c.err = err
	}
}

// flushLocked sends the buffered output, if any, in one frame; c.mu is
// held.
func (c *childConn) flushLocked() error {
	if c.pending() == 0 {
		return nil
	}
	kind, _ := outputKind(c.kind)
	putOutputHeader(c.buf, kind)
	err := c.frameWriter.write(c.buf)
	c.buf = c.buf[:outputHeader]
	c.lastSent = time.Now()
	if c.armed && c.timer.Stop() {
		// Flushed before the window's end (by size, or before a message):
		// the timer has nothing left to do.
		c.armed = false
	}
	return err
}

// sendEnded sends a run's result, with the memory the worker holds after
// it and, for a session's run, why the session ended, if it did; without
// its output when that was not truncated (see wireResult.Streamed). A
// result whose frame would be over MaxFrameSize loses its return value,
// and then its output, for a notice.
func (c *childConn) sendEnded(res *runtime.Result, ended string) error {
	w := toWire(res)
	if !res.Truncated {
		w.Stdout, w.Stderr, w.Streamed = "", "", true
	}
	heap := heldMemory()
	err := c.send(&message{Type: msgDone, Done: w, Ended: ended, Heap: heap})
	if !errors.Is(err, errFrameTooLarge) {
		return err
	}
	if w.Value != nil {
		msg := fmt.Sprintf("the return value is %d bytes as JSON, too large to return from an isolated worker (the limit is %d bytes)", len(w.Value), MaxFrameSize)
		w.Value, w.ValueText = nil, ""
		if w.Error == nil {
			w.Error = &runtime.Error{Name: "LimitError", Message: msg, Stack: "LimitError: " + msg, Kind: runtime.KindLimit}
		}
		if err = c.send(&message{Type: msgDone, Done: w, Ended: ended, Heap: heap}); !errors.Is(err, errFrameTooLarge) {
			return err
		}
	}
	keep := MaxFrameSize / 4
	for _, s := range []*string{&w.Stdout, &w.Stderr} {
		if kept, cut := tail.Suffix(*s, keep, tail.AtRune); cut {
			*s = fmt.Sprintf("[output truncated: the first %d bytes were dropped to fit the worker protocol]\n", len(*s)-len(kept)) + kept
			w.Truncated = true
		}
	}
	return c.send(&message{Type: msgDone, Done: w, Ended: ended, Heap: heap})
}

// heldMemory is the memory the worker's Go runtime holds from the system
// (its heap, free or not, the goroutine stacks and its own structures;
// not what it has returned to the system): about its resident size, and
// what an idle worker keeps while it waits for another run. Reading it
// does not stop the world.
func heldMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// outputWriter sends console output to the parent (batched, see
// childConn).
type outputWriter struct {
	c    *childConn
	kind string
}

func (w outputWriter) Write(p []byte) (int, error) {
	return w.WriteString(string(p))
}

// WriteString is Write without a conversion: the runtime writes each
// console line with io.WriteString, which would otherwise allocate a copy
// of every line.
func (w outputWriter) WriteString(s string) (int, error) {
	if err := w.c.output(w.kind, s); err != nil {
		return 0, err
	}
	return len(s), nil
}

// Held tells the parent, after the output sent so far, that the run holds
// the rest of the stream back until it ends (runtime.OutputHolder): should
// the worker die first, the parent knows that output was lost.
func (w outputWriter) Held() {
	_ = w.c.send(&message{Type: w.kind, Held: true})
}

// remoteCaller is the worker's toolcall.Caller: it forwards every call to
// the parent, which accounts for it and runs it, and waits for the answer
// or for the run's context to end.
type remoteCaller struct {
	c      *childConn
	memory int64           // the worker's memory limit
	tools  []registry.Info // the tools of the run in progress
	idle   atomic.Bool     // between runs, ready for the next
	kick   func()          // called when a call starts to wait

	mu      sync.Mutex
	seq     uint64
	pending map[uint64]chan *message
}

var _ toolcall.Starter = (*remoteCaller)(nil)

// options are the run's runtime.Options, with the tools bound through r.
func (r *remoteCaller) options(req *runRequest) runtime.Options {
	opts := req.Options
	opts.Stdout = outputWriter{c: r.c, kind: msgStdout}
	opts.Stderr = outputWriter{c: r.c, kind: msgStderr}
	opts.Setup = bindings.New(r).Setup
	// The worker's own limit, set when it started, is the one its address
	// space has.
	opts.Memory, opts.HeapCeiling = r.memory, heapCeiling(r.memory)
	opts.OnRunaway = func() { os.Exit(exitMemory) }
	return opts
}

// Tools returns the parent's tools as of the run's start.
func (r *remoteCaller) Tools() []registry.Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tools
}

// setTools sets the tools of the next run.
func (r *remoteCaller) setTools(tools []registry.Info) {
	r.mu.Lock()
	r.tools = tools
	r.mu.Unlock()
}

// between forgets the calls of the run that ended that still wait (each
// also waits for the run's context, which has ended), so that nothing of
// them is left for the next run, and the pipe is not polled for their
// answers. The tool list stays for a next run whose request says
// SameTools; any other request replaces it.
func (r *remoteCaller) between() {
	r.mu.Lock()
	clear(r.pending)
	r.mu.Unlock()
}

// deliver hands an answer to the call waiting for it, if one still does.
func (r *remoteCaller) deliver(m *message) {
	r.mu.Lock()
	ch := r.pending[m.Seq]
	delete(r.pending, m.Seq)
	r.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// CallTool starts the call and waits for it (see StartCall and
// toolcall.CallStarted).
func (r *remoteCaller) CallTool(ctx context.Context, name string, params map[string]any, opts registry.CallOptions) (registry.Result, error) {
	return toolcall.CallStarted(ctx, r, name, params, opts)
}

// StartCall sends the call to the parent at once, on the loop, so that
// the parent sees it in order with the output printed around it, and
// returns the function that waits for the answer. When the run's context
// ends first, that function tells the parent to cancel the call and
// returns an error at once. A result the parent wants an ack of comes
// with a finalizer that sends it: the bindings run it when they know
// whether the snippet got the result.
func (r *remoteCaller) StartCall(name string, params map[string]any) (toolcall.Perform, error) {
	ch := make(chan *message, 1)
	r.mu.Lock()
	r.seq++
	seq := r.seq
	r.pending[seq] = ch
	r.mu.Unlock()
	r.kick()
	if err := r.c.send(&message{Type: msgCall, Seq: seq, Name: name, Params: params}); err != nil {
		r.forget(seq)
		return nil, fmt.Errorf("tool %s not run: %w", name, err)
	}
	return func(ctx context.Context) (registry.Result, error) {
		select {
		case m := <-ch:
			switch {
			case m.NotFound:
				return registry.Result{}, &registry.NotFoundError{Name: name}
			case m.Limit:
				return registry.Result{}, runtime.NewLimitError(m.Error, nil)
			case m.Ends != "":
				return registry.Result{}, endingError(m.Ends, m.Error)
			case m.Error != "":
				return registry.Result{}, errors.New(m.Error)
			case m.Result == nil:
				return registry.Result{}, fmt.Errorf("tool %s: the host sent no result", name)
			}
			res := m.Result.result()
			if m.Ack {
				res = res.OnDelivered(func(delivered bool) {
					// A pipe that broke leaves the ack unsent: the parent
					// then counts the result as not delivered.
					_ = r.c.send(&message{Type: msgAck, Seq: seq, Delivered: delivered})
				})
			}
			return res, nil
		case <-ctx.Done():
			r.forget(seq)
			_ = r.c.send(&message{Type: msgCancel, Seq: seq})
			return registry.Result{}, fmt.Errorf("tool %s cancelled: %w", name, context.Cause(ctx))
		}
	}, nil
}

func (r *remoteCaller) forget(seq uint64) {
	r.mu.Lock()
	delete(r.pending, seq)
	r.mu.Unlock()
}

// waiting reports whether a call waits for its answer.
func (r *remoteCaller) waiting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.pending) > 0
}
