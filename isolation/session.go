package isolation

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/toolcall"
)

// stopReason says why the parent killed a worker.
type stopReason int

const (
	stopNone     stopReason = iota
	stopCanceled            // the caller's context ended
	stopTimeout             // the run's timeout plus KillGrace passed
	stopClosed              // the pool was closed
	stopProtocol            // the run request could not be sent
)

// session is one run on one worker, as the parent sees it.
type session struct {
	pool   *Pool
	caller toolcall.Caller
	opts   runtime.Options
	// tools are caller's tools as of the run's start, as the worker gets
	// them (see wireTools), and toolsKey their JSON, which names the tool
	// set of the workers that may serve it.
	tools    []registry.Info
	toolsKey string
	// The limits the parent enforces itself, defaults applied.
	timeout, cancelGrace time.Duration
	sourceLen            int

	mu      sync.Mutex // guards w, reason, sendErr
	w       *process
	reason  stopReason
	sendErr error

	// startErr is why the run's worker did not start (see process.ready);
	// run's own.
	startErr error

	// parent is the caller's context: once it is done, the run ends as
	// cancelled, whatever the worker answered meanwhile.
	parent context.Context
	// Tool calls. ctx is their parent context, cancelled when the run
	// ends, and once the worker is ready reporting the run's deadline
	// (runDeadline); the caller accounts for them (limits, trace, events).
	ctx    context.Context
	cancel context.CancelCauseFunc
	callMu sync.Mutex
	calls  map[uint64]context.CancelFunc // running calls by seq
	wg     sync.WaitGroup
	// acks are the finalizers of the results sent whose ack the worker
	// has not sent yet, by seq (guarded by callMu); after the run's end
	// (over), a result is finalized with false as soon as it is made.
	acks map[uint64]func(delivered bool)
	over bool

	// keep asks run to leave a worker that sent its result alive, for the
	// next run of its Session; kept reports that run did.
	keep, kept bool
	// ended is why the worker's session ended, from its done.
	ended string
	// heap is the memory the worker held after the run, from its done.
	heap uint64

	// Written by the reader goroutine only, read after it returned.
	stdout, stderr stream
	done           *wireResult
}

// newSession is the host side of one run, whose options have their
// limits' defaults (see Pool.begin).
func newSession(p *Pool, caller toolcall.Caller, opts runtime.Options, tools []registry.Info, toolsKey string) *session {
	s := &session{pool: p, caller: caller, opts: opts, tools: tools, toolsKey: toolsKey, calls: map[uint64]context.CancelFunc{}, acks: map[uint64]func(bool){}}
	s.timeout, s.cancelGrace = opts.Timeout, opts.CancelGrace
	s.stdout = newStream(opts.Stdout, opts.MaxOutputBytes)
	s.stderr = newStream(opts.Stderr, opts.MaxOutputBytes)
	return s
}

// stop kills the run's worker for reason; the first reason wins. Safe to
// call at any time from any goroutine, before the run has a worker too.
func (s *session) stop(reason stopReason) {
	s.mu.Lock()
	if s.reason == stopNone {
		s.reason = reason
	}
	w := s.w
	s.mu.Unlock()
	if w != nil {
		w.kill()
	}
}

// run sends the run to w and serves it until the worker sends its result
// or dies. Then it keeps the worker for the next run of its Session
// (keep), gives it back to the pool when the run ended cleanly, and
// retires or discards it otherwise.
func (s *session) run(ctx context.Context, w *process, source string) *runtime.Result {
	s.parent = ctx
	s.ctx, s.cancel = context.WithCancelCause(ctx)
	s.sourceLen = len(source)
	s.mu.Lock()
	s.w = w
	killed := s.reason != stopNone
	s.mu.Unlock()
	if killed {
		w.kill()
	}
	stopCtx := context.AfterFunc(ctx, func() { s.stop(stopCanceled) })
	opts := s.opts
	opts.Timeout = s.timeout
	req := &runRequest{Source: source, Options: opts, Tools: s.tools, Session: s.keep}
	if !s.keep && w.runs > 1 {
		// w served a run before this one, and the pool gave it to this
		// run because that run had the same tools.
		req.Tools, req.SameTools = nil, true
	}
	// Sent before the worker may be ready: the request waits in the pipe
	// while it starts, and it reads it as soon as it reported ready.
	if err := w.send(&message{Type: msgRun, Run: req}); err != nil {
		s.mu.Lock()
		s.sendErr = err
		s.mu.Unlock()
		s.stop(stopProtocol)
	}
	readErr := make(chan error, 1)
	var timer *time.Timer
	if s.startErr = w.ready(); s.startErr != nil {
		readErr <- s.startErr
	} else {
		// The run's time starts when its worker is ready. Its tool calls,
		// which come after, see the run's deadline, as in process, so that
		// a tool that plans by it (bash) knows the time left.
		timer = time.AfterFunc(s.timeout+KillGrace, func() { s.stop(stopTimeout) })
		s.ctx = runDeadline{s.ctx, time.Now().Add(s.timeout)}
		go func() { readErr <- s.read(w) }()
	}
	err := <-readErr
	s.endDeliveries()
	stopCtx()
	if timer != nil {
		timer.Stop()
	}
	s.mu.Lock()
	stopped := s.reason != stopNone
	s.mu.Unlock()
	// A run whose caller cancelled it ends as cancelled (see result), even
	// when its result came in before the stop: its worker is not reused.
	cancelled := s.parent.Err() != nil
	reuse := false
	switch {
	// A session's worker is kept for its next run, unless the run hit the
	// memory limit: the worker is then full of the session's state, so it
	// is retired, and the session ends.
	case s.done != nil && s.keep && !stopped && s.ended == "" && !s.done.Memory:
		s.kept = true
	case s.done != nil && !s.keep && !stopped && !cancelled && s.pool.reusable(w, s.done, s.heap):
		reuse = true // once its calls have returned
	case s.done != nil && !s.keep:
		why := RetiredStopped
		if !stopped && !cancelled {
			why = cmp.Or(s.pool.unreusable(w, s.done, s.heap), RetiredUnclean)
		}
		s.pool.release(w, why)
	case s.done != nil:
		s.pool.retire(w)
	default:
		w.discard() // synchronously: its exit status and stderr say what happened
		if !s.keep {
			why := RetiredDied
			if stopped && !s.protocolStop() {
				why = RetiredStopped
			}
			s.pool.release(w, why)
		}
	}
	s.cancel(runtime.ErrRunOver)
	if returned := s.waitCalls(); reuse {
		// A call still running could answer into the next run's worker:
		// harmless (seqs are unique for the worker's life), but a worker
		// is only reused after a run that is wholly over.
		why := ""
		if !returned {
			why = RetiredUnclean
		}
		s.pool.release(w, why)
	}
	return s.result(w, err)
}

// protocolStop reports whether the parent stopped the run because the
// run request could not be sent (a worker that died as it started, or a
// request it could not take).
func (s *session) protocolStop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason == stopProtocol
}

// result builds the run's result once the worker is gone. A run whose
// caller cancelled it (or whose pool was closed) ends with that, even when
// the worker's result came in meanwhile: the tool calls the cancellation
// ended may have shaped it.
func (s *session) result(w *process, readErr error) *runtime.Result {
	s.mu.Lock()
	if s.reason == stopNone && s.parent.Err() != nil {
		// The cancellation reached the tool calls (and through them the
		// worker's result) before its stop did.
		s.reason = stopCanceled
	}
	reason, sendErr := s.reason, s.sendErr
	s.mu.Unlock()
	if s.done != nil && reason != stopCanceled && reason != stopClosed {
		res := s.done.result()
		if s.done.Streamed {
			res.Stdout, res.Stderr = s.stdout.text(), s.stderr.text()
		}
		return res
	}
	stdout, cutOut := s.stdout.kept()
	stderr, cutErr := s.stderr.kept()
	res := &runtime.Result{Stdout: stdout, Stderr: stderr, Truncated: cutOut || cutErr}
	switch reason {
	case stopCanceled:
		res.Error = canceledError("the run was cancelled by its caller").WithCause(s.ctx.Err())
	case stopClosed:
		res.Error = canceledError(closedMessage).WithCause(ErrClosed)
	case stopTimeout:
		timeout := runtime.TimeoutError(s.timeout)
		res.Error = limitError(timeout.Message).WithCause(timeout)
	case stopProtocol:
		switch {
		case errors.Is(sendErr, errFrameTooLarge):
			res.Error = limitError(fmt.Sprintf("the snippet is %d bytes, too large to send to an isolated worker (the limit is %s)", s.sourceLen, runtime.FormatBytes(MaxFrameSize)))
		case errors.Is(sendErr, errEncode):
			res.Error = internalError(fmt.Sprintf("the run cannot be sent to an isolated worker: %v", sendErr))
		case s.startErr != nil:
			// The request was sent as the worker started (see run), and
			// the pipe broke as it failed to.
			res.Error = startRefusal(s.parent, s.startErr).Error
		default:
			res.Error = crashError(w, s.pool.opts.MemoryLimit)
		}
	default:
		if s.startErr != nil {
			res.Error = startRefusal(s.parent, s.startErr).Error
			break
		}
		res.Error = crashError(w, s.pool.opts.MemoryLimit)
		if res.Error.Kind == runtime.KindInternal && readErr != nil && !errors.Is(readErr, io.EOF) && !errors.Is(readErr, io.ErrUnexpectedEOF) {
			res.Error = internalError(fmt.Sprintf("the isolated worker broke the protocol: %v", readErr))
		}
	}
	return res
}

// read serves the worker's messages until its result, its death, or a
// protocol error.
func (s *session) read(w *process) error {
	for {
		m, err := readMessage(w.rd)
		if err != nil {
			return err
		}
		switch m.Type {
		case msgCall:
			if err := s.call(w, m); err != nil {
				return err
			}
		case msgCancel:
			s.callMu.Lock()
			cancel := s.calls[m.Seq]
			s.callMu.Unlock()
			if cancel != nil {
				cancel()
			}
		case msgAck:
			// Here, in the order the worker wrote: what the finalizer
			// commits is in place before the next call of the run is read.
			if err := s.ack(m); err != nil {
				return err
			}
		case msgStdout:
			s.stdout.receive(m)
		case msgStderr:
			s.stderr.receive(m)
		case msgDone:
			if m.Done == nil {
				return errors.New("a done message without a result")
			}
			s.done, s.ended, s.heap = m.Done, m.Ended, m.Heap
			return nil
		default:
			return fmt.Errorf("unexpected %q message", m.Type)
		}
	}
}

// call starts a tool call the worker asked for: synchronously, so that the
// caller sees the calls in the order the snippet made them, interleaved
// with its output as it was printed; the call itself runs on an executor.
func (s *session) call(w *process, m *message) error {
	if m.Seq == 0 || m.Name == "" {
		return errors.New("a call message without seq or name")
	}
	if m.Params == nil {
		m.Params = map[string]any{}
	}
	s.callMu.Lock()
	if _, dup := s.calls[m.Seq]; dup {
		s.callMu.Unlock()
		return fmt.Errorf("call %d sent twice", m.Seq)
	}
	s.callMu.Unlock()
	perform, err := toolcall.Start(s.caller, m.Name, m.Params)
	if err != nil {
		s.answer(w, m, registry.Result{}, err)
		return nil
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.callMu.Lock()
	s.calls[m.Seq] = cancel
	s.wg.Add(1)
	s.callMu.Unlock()
	s.pool.execs.run(func() {
		defer s.wg.Done()
		defer cancel()
		res, err := perform(ctx)
		s.callMu.Lock()
		delete(s.calls, m.Seq)
		s.callMu.Unlock()
		s.answer(w, m, res, err)
	})
	return nil
}

// ack finalizes the result of call m.Seq as the worker's ack says. An ack
// of a result that awaits none is a protocol error.
func (s *session) ack(m *message) error {
	fin := s.takeAck(m.Seq)
	if fin == nil {
		return fmt.Errorf("an ack of call %d, whose result awaits none", m.Seq)
	}
	fin(m.Delivered)
	return nil
}

// awaitAck records the finalizer of a result about to be sent for call
// seq, to run when the worker acks it, and reports whether to ask for
// the ack; after the run's end it runs the finalizer with false at once.
func (s *session) awaitAck(seq uint64, res registry.Result) bool {
	fin := res.Finalizer()
	if fin == nil {
		return false
	}
	s.callMu.Lock()
	over := s.over
	if !over {
		s.acks[seq] = fin
	}
	s.callMu.Unlock()
	if over {
		fin(false)
	}
	return !over
}

// unsent finalizes with false the result of call seq, which did not
// reach the worker.
func (s *session) unsent(seq uint64) {
	if fin := s.takeAck(seq); fin != nil {
		fin(false)
	}
}

// takeAck removes and returns the finalizer awaiting the ack of call seq,
// nil when none does.
func (s *session) takeAck(seq uint64) func(bool) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	fin := s.acks[seq]
	delete(s.acks, seq)
	return fin
}

// endDeliveries ends the run's deliveries once its worker's messages are
// read: the results still waiting for an ack were not delivered.
func (s *session) endDeliveries() {
	s.callMu.Lock()
	s.over = true
	acks := s.acks
	s.acks = nil
	s.callMu.Unlock()
	for _, fin := range acks {
		fin(false)
	}
}

// answer sends a call's outcome to the worker. A result that cannot cross
// the boundary (not JSON, or over MaxFrameSize) is sent as an error saying
// so. A worker that is gone is not an error here: the reader sees it. A
// result with a finalizer is sent asking for an ack (see ack); one that
// is not sent is finalized with false.
func (s *session) answer(w *process, m *message, res registry.Result, err error) {
	msg := &message{Type: msgResult, Seq: m.Seq}
	var sendErr error
	if err != nil {
		var limit *runtime.LimitError
		msg.Error, msg.NotFound, msg.Limit = err.Error(), errors.Is(err, registry.ErrToolNotFound), errors.As(err, &limit)
		switch {
		case errors.Is(err, toolcall.ErrPaused):
			msg.Ends = endsPaused
		case errors.Is(err, toolcall.ErrDiverged):
			msg.Ends = endsDiverged
		}
		sendErr = w.send(msg)
	} else if msg.Result, sendErr = wireToolResult(res); sendErr != nil {
		res.Finalize(false)
		sendErr = fmt.Errorf("details %w: %w", errEncode, sendErr)
	} else {
		msg.Ack = s.awaitAck(m.Seq, res)
		if sendErr = w.send(msg); sendErr != nil {
			s.unsent(m.Seq)
		}
	}
	if sendErr == nil {
		w.answered()
		return
	}
	var why string
	switch {
	case errors.Is(sendErr, errFrameTooLarge):
		why = fmt.Sprintf("its result is too large to pass to an isolated worker (the limit is %s)", runtime.FormatBytes(MaxFrameSize))
	case errors.Is(sendErr, errEncode):
		why = fmt.Sprintf("its result %v", sendErr)
	default:
		return
	}
	_ = w.send(&message{Type: msgResult, Seq: m.Seq, Error: fmt.Sprintf("tool %s failed: %s", m.Name, why)})
}

// waitCalls waits, for at most cancelGrace, for the tool calls to return
// after the run's context was cancelled, and reports whether they did.
func (s *session) waitCalls() bool {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(s.cancelGrace)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// stream is one console stream of a run as it reached the parent: passed
// on to the live writer and kept for a run whose worker dies. The worker's
// runtime bounds what it sends to its output limit and one notice line.
type stream struct {
	live     io.Writer
	limit    int
	buf      *tail.Head // what the parent keeps: limit and one notice line
	received int
	// held: the worker's runtime held the rest of the stream back (see
	// runtime.OutputHolder); after: output came after that, when the run
	// ended and let it go.
	held, after bool
}

func newStream(live io.Writer, limit int) stream {
	return stream{live: live, limit: limit, buf: tail.NewHead(limit+1024, nil)}
}

// text is what the stream kept, cut at a rune boundary.
func (st *stream) text() string {
	s, _ := st.buf.Text(tail.AtRune)
	return s
}

// lostNotice ends the output of a run whose worker died while it held the
// rest back.
const lostNotice = runtime.NoticePrefix + "what the snippet printed after this was lost when its worker stopped]\n"

// kept returns the stream as the result of a run whose worker died keeps
// it, and whether it was cut: when the worker held output back that never
// came, the text ends with lostNotice. Output the run let go at its end
// may hold the runtime's own notice, and is then cut.
func (st *stream) kept() (string, bool) {
	text := st.text()
	if st.held && !st.after {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return text + lostNotice, true
	}
	return text, st.received > st.limit || st.after && strings.Contains(text, runtime.NoticePrefix)
}

// receive takes a stream message from the worker: output, or the mark
// that the rest is held back.
func (st *stream) receive(m *message) {
	if m.Held {
		st.held = true
		return
	}
	if st.held {
		st.after = true
	}
	if st.live != nil {
		_, _ = io.WriteString(st.live, m.Data)
	}
	st.received += len(m.Data)
	_, _ = io.WriteString(st.buf, m.Data)
}

// runDeadline is a run's context for its tool calls: it reports the run's
// deadline, at, so that a tool can plan by the time left, but it is done
// only when its parent is, when the run ends. The worker's clock decides
// the timeout: a call that the parent's clock ended first would reject in
// the snippet before the run ends, with a ToolError instead of the
// run's timeout.
type runDeadline struct {
	context.Context
	at time.Time
}

// Deadline returns the run's deadline.
func (c runDeadline) Deadline() (time.Time, bool) { return c.at, true }
