package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/codeexec/codeexec/mcp"
	"github.com/codeexec/codeexec/registry"
)

// deniedByUser and noTerminal are the reasons a --confirm gate gives; the
// snippet's ToolError reads "Tool call NAME blocked: REASON".
const (
	deniedByUser = "denied by the user"
	noTerminal   = "denied: --confirm asks on a terminal, and there is none"
)

// checkPatterns refuses a --confirm pattern of command cmd that path.Match
// cannot read.
func checkPatterns(cmd string, patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil || p == "" {
			return usagef(cmd, "--confirm %q: want a tool name or a glob such as write, edit or everything.*", p)
		}
	}
	return nil
}

// matchAny reports whether name matches one of patterns (path.Match: *
// matches any run of characters but "/", ? one character).
func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// confirmer asks on a terminal before each tool call whose name matches one
// of its patterns: it is a registry tool_call hook, so it gates every call
// a snippet makes. One question at a time; a call whose context ends while
// it waits is denied. Only a line typed while a question waits answers it:
// one typed between questions (a stray y, or an answer typed after the
// call's context ended) is dropped, and stderr says so, rather than
// answering the next question before it is shown. Lines typed before the
// first question, which opens the terminal, wait there unread: on Linux
// they are discarded then, with the same word on stderr (dropTypeahead);
// elsewhere they may still answer it.
type confirmer struct {
	patterns []string
	// open returns the terminal to ask on; an error means there is none,
	// and every matching call is denied.
	open func() (io.ReadWriteCloser, error)
	// ask, when set, asks instead of the terminal (codeexec mcp asks the
	// MCP client): it returns "" to allow the call, or the reason it is
	// denied.
	ask func(ctx context.Context, line string) string
	// stderr is told about the lines dropped; nil drops them silently. The
	// terminal's reader writes to it, while the run may write too: it
	// must be safe for concurrent use.
	stderr io.Writer

	mu   sync.Mutex // one question at a time
	once sync.Once
	tty  io.ReadWriteCloser
	// ended is closed when the terminal's reader ends (the terminal was
	// closed, or gave an error).
	ended chan struct{}
	// waiting, under wmu, takes the next line for the question that
	// waits for it; nil while none waits.
	wmu     sync.Mutex
	waiting chan string
}

// hook is the registry.ToolCallHook.
func (c *confirmer) hook(lookup func(string) (registry.Info, bool)) registry.ToolCallHook {
	return func(ctx context.Context, ev registry.ToolCallEvent) string {
		if !matchAny(c.patterns, ev.Name) {
			return ""
		}
		line := describeCall(lookup, ev.Name, ev.Params)
		if c.ask != nil {
			return c.ask(ctx, line)
		}
		return c.askTerminal(ctx, line)
	}
}

// start opens the terminal and reads its lines on one goroutine, which
// ends when the terminal is closed.
func (c *confirmer) start() {
	if c.open == nil {
		return
	}
	tty, err := c.open()
	if err != nil {
		return
	}
	if dropTypeahead(tty) && c.stderr != nil {
		fmt.Fprintln(c.stderr, "codeexec: --confirm ignored what was typed before its first question")
	}
	c.tty, c.ended = tty, make(chan struct{})
	go func() {
		defer close(c.ended)
		in := bufio.NewReader(tty)
		for {
			s, err := in.ReadString('\n')
			if err != nil {
				return
			}
			c.wmu.Lock()
			answer := c.waiting
			c.waiting = nil
			c.wmu.Unlock()
			if answer != nil {
				answer <- s // buffered: never blocks
			} else if c.stderr != nil {
				fmt.Fprintf(c.stderr, "codeexec: --confirm ignored %q, typed while no question was asked\n", strings.TrimRight(s, "\r\n"))
			}
		}
	}()
}

// expect makes the terminal's next line the answer of a question, until
// stop is called; call it before showing the question, which may be
// answered as soon as it shows.
func (c *confirmer) expect() (answer chan string, stop func()) {
	answer = make(chan string, 1)
	c.wmu.Lock()
	c.waiting = answer
	c.wmu.Unlock()
	return answer, func() {
		// A line that comes after this is for no question.
		c.wmu.Lock()
		c.waiting = nil
		c.wmu.Unlock()
	}
}

// await waits for the answer: ok is false when the terminal ended first,
// or ctx did (done is then set).
func (c *confirmer) await(ctx context.Context, answer chan string) (line string, ok, done bool) {
	select {
	case s := <-answer:
		return s, true, false
	case <-c.ended:
		// The reader may have passed on a last line before it ended.
		select {
		case s := <-answer:
			return s, true, false
		default:
			return "", false, false
		}
	case <-ctx.Done():
		return "", false, true
	}
}

// askTerminal shows the call and waits for y or yes; anything else denies
// it.
func (c *confirmer) askTerminal(ctx context.Context, line string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.once.Do(c.start)
	if c.tty == nil {
		return noTerminal
	}
	answer, stop := c.expect()
	defer stop()
	if _, err := fmt.Fprintf(c.tty, "\r\x1b[Kcodeexec: allow %s ? [y/N] ", line); err != nil {
		return noTerminal
	}
	s, ok, done := c.await(ctx, answer)
	switch {
	case done:
		fmt.Fprintln(c.tty)
		return deniedByUser
	case !ok:
		return noTerminal
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes":
		return ""
	}
	return deniedByUser
}

// close closes the terminal, if one was opened, which ends its reader.
func (c *confirmer) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tty != nil {
		_ = c.tty.Close()
		<-c.ended
	}
}

// askMCPClient asks the MCP client of the code_execution call behind ctx
// (codeexec mcp --confirm); a run that will ask it through an
// input-required result pauses (registry.Ask).
func askMCPClient(ctx context.Context, line string) string {
	ok, err := mcp.Confirm(ctx, "codeexec: allow "+line+" ?")
	switch {
	case errors.Is(err, mcp.ErrPause):
		return registry.Ask
	case err != nil:
		return "denied: " + err.Error()
	case !ok:
		return deniedByUser
	}
	return ""
}
