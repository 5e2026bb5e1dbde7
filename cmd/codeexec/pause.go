package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/codeexec/codeexec"
	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/toolset"
)

// exitPaused is the exit code of a run that paused to wait for input
// (--pause): its state is in the --pause file.
const exitPaused = 4

// stateKeyEnv names the variable that holds the key sealing paused runs'
// states; see stateKey.
const stateKeyEnv = "CODEEXEC_STATE_KEY"

// minStateKey is the shortest key stateKeyEnv may hold.
const minStateKey = 32

// pauseFlags are the flags of run and resume that make a run pausable.
type pauseFlags struct {
	file        string // --pause
	callerTools string // --caller-tools
}

func (pf *pauseFlags) register(fs *pflag.FlagSet, about string) {
	fs.StringVar(&pf.file, "pause", "", about)
	pf.registerCallerTools(fs)
}

// registerCallerTools defines --caller-tools alone, for the commands that
// document or list the tools (prompt, tools).
func (pf *pauseFlags) registerCallerTools(fs *pflag.FlagSet) {
	fs.StringVar(&pf.callerTools, "caller-tools", "", "`FILE` of a JSON array of tool definitions ({name, description, parameters, callSignature?}) whose calls the caller serves: each pauses the run and comes back as a request that codeexec resume --result or --error answers (needs --pause on run)")
}

// callerTool is one definition of a --caller-tools file.
type callerTool struct {
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	Parameters    map[string]any `json:"parameters"`
	CallSignature string         `json:"callSignature,omitempty"`
}

// addCallerTools registers the tools of the --caller-tools file, as
// served by the caller.
func (pf *pauseFlags) addCallerTools(reg *registry.Registry) error {
	if pf.callerTools == "" {
		return nil
	}
	data, err := os.ReadFile(pf.callerTools)
	if err != nil {
		return fmt.Errorf("--caller-tools: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var defs []callerTool
	if err := dec.Decode(&defs); err != nil {
		return fmt.Errorf("--caller-tools %s: want a JSON array of {name, description, parameters, callSignature}: %w", pf.callerTools, err)
	}
	for _, d := range defs {
		t := registry.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters, CallSignature: d.CallSignature, CallerServed: true, Source: pf.callerTools}
		if err := reg.Register(t); err != nil {
			return fmt.Errorf("--caller-tools %s: %w", pf.callerTools, err)
		}
	}
	return nil
}

// envStateKey returns the key in $CODEEXEC_STATE_KEY, nil when it is not
// set; it refuses one shorter than minStateKey.
func envStateKey() ([]byte, error) {
	k := os.Getenv(stateKeyEnv)
	switch {
	case k == "":
		return nil, nil
	case len(k) < minStateKey:
		return nil, fmt.Errorf("$%s is %d bytes; it must hold at least %d", stateKeyEnv, len(k), minStateKey)
	}
	return []byte(k), nil
}

// stateKey returns the key that seals paused runs' states, which every
// process that resumes them must share: $CODEEXEC_STATE_KEY when set (at
// least 32 bytes), else the key in codeexec/state-key under the user's
// configuration directory, made on first use (32 random bytes, hex, mode
// 0600).
func stateKey() ([]byte, error) {
	if k, err := envStateKey(); k != nil || err != nil {
		return k, err
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no key for paused runs: set $%s (at least %d bytes), or a configuration directory ($XDG_CONFIG_HOME or $HOME): %w", stateKeyEnv, minStateKey, err)
	}
	path := filepath.Join(dir, "codeexec", "state-key")
	if k, err := os.ReadFile(path); err == nil {
		if len(bytes.TrimSpace(k)) < minStateKey {
			return nil, fmt.Errorf("the key of paused runs in %s is shorter than %d bytes", path, minStateKey)
		}
		return bytes.TrimSpace(k), nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the key of paused runs: %w", err)
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	k := []byte(hex.EncodeToString(raw))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the key of paused runs: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process made it first.
		return stateKey()
	}
	if err != nil {
		return nil, fmt.Errorf("make the key of paused runs: %w", err)
	}
	_, werr := f.Write(append(k, '\n'))
	if err := errors.Join(werr, f.Close()); err != nil {
		return nil, fmt.Errorf("make the key of paused runs: %w", err)
	}
	return k, nil
}

// finish prints a run's result and returns its exit code; a paused run's
// state goes to statePath, its requests to stderr (or into the JSON
// object), and its exit code is exitPaused.
//
// With a store (--store), the state goes there and statePath gets its
// handle.
func (a *app) finish(ctx context.Context, res *codeexec.Result, asJSON bool, statePath string, sf *storeFlag) (int, error) {
	if res.Pause != nil {
		content := res.Pause.State
		if sf.st != nil {
			var err error
			if content, err = sf.keepState(ctx, content); err != nil {
				return 0, fmt.Errorf("--pause: %w", err)
			}
		}
		if err := replaceFile(statePath, content); err != nil {
			return 0, fmt.Errorf("--pause: %w", err)
		}
	}
	if asJSON {
		out := codeexec.NewJSONResult(res)
		if out.Pause != nil {
			out.Pause.State = statePath
		}
		if err := writeJSON(a.stdout, out); err != nil {
			return 0, err
		}
	} else {
		a.printResult(res)
		if res.Pause != nil {
			a.printPause(res.Pause, statePath)
		}
	}
	var stateErr *codeexec.StateError
	switch {
	case res.Pause != nil:
		return exitPaused, nil
	case res.Error == nil:
		return exitOK, nil
	case errors.As(res.Error, &stateErr):
		return exitUsage, nil
	case res.Error.Kind == codeexec.KindCompile:
		return exitNoCompile, nil
	}
	return exitFailed, nil
}

// printPause tells on stderr what a paused run waits for, one request a
// line: its id, its tool, what it needs and the call as a person reads
// it ("codeexec: paused: call_1 write needs approval: Write file:
// notes.txt", "codeexec: paused: call_2 lookup needs the caller's result:
// lookup: life"), and how to go on.
func (a *app) printPause(p *codeexec.Pause, statePath string) {
	var answers []string
	for _, q := range p.Requests {
		what, answer := "needs approval", "--approve "+q.ID
		if q.Kind == codeexec.InputTool {
			what, answer = "needs the caller's result", "--result "+q.ID+"=JSON"
		}
		fmt.Fprintf(a.stderr, "codeexec: paused: %s %s %s: %s\n", q.ID, q.Tool, what, q.Text)
		answers = append(answers, answer)
	}
	fmt.Fprintf(a.stderr, "codeexec: the run's state is in %s; go on with: codeexec resume %s %s\n", statePath, statePath, strings.Join(answers, " "))
}

// resumeSynopsis and resumeAbout are resume's help text.
const resumeSynopsis = `  codeexec resume FILE [flags]`

const resumeAbout = `Continue a run that paused (codeexec run --pause FILE): the same source
runs again, every tool call it made is answered from the run's log
without running the tool again, its clock and randomness read as they
did, and each call that waited gets its answer; then the run goes on. It
may pause again (exit code 4, its state in --pause FILE2, or FILE again).
Give every request an answer:

  --approve ID|all     allow a call that needs approval
  --deny ID|all        refuse it: the snippet gets a ToolError it can catch
  --result ID=JSON     the result of a call of a --caller-tools tool
  --error ID=MESSAGE   its failure: the snippet gets a ToolError

and the tool flags the run had (--root, --tools-dir, --mcp-config,
--caller-tools, --confirm and the rest): the run resumes only with the
tools it was made with. A state that was changed, truncated, expired,
sealed with another key or made for other tools is refused (exit code 2)
and nothing runs. States are sealed with $CODEEXEC_STATE_KEY, or with a
key made on first use in codeexec/state-key under the user's
configuration directory: processes that resume each other's runs share
it.`

// resume is `codeexec resume`.
func (a *app) resume(ctx context.Context, args []string) (int, error) {
	fs := a.newFlagSet("resume", resumeSynopsis, resumeAbout)
	var (
		approve  = fs.StringArray("approve", nil, "allow the call `ID` that needs approval, or all of them (repeatable)")
		deny     = fs.StringArray("deny", nil, "refuse the call `ID` that needs approval, or all of them (repeatable)")
		results  = fs.StringArray("result", nil, "`ID=JSON`: the result of a caller-served call (repeatable)")
		failures = fs.StringArray("error", nil, "`ID=MESSAGE`: the failure of a caller-served call (repeatable)")
		asJSON   = fs.Bool("json", false, "print one JSON object describing the run")
		trace    = fs.Bool("trace", false, "print each tool call's start, partial updates and end on stderr as they happen")
		confirm  = fs.StringArray("confirm", nil, "a call of a tool matching `PATTERN` pauses the run again for approval, as with run --pause (repeatable)")
	)
	var pf pauseFlags
	pf.register(fs, "`FILE` the state goes to if the run pauses again (default: the state's own FILE)")
	var rf runnerFlags
	rf.register(fs, "where the snippet runs, a `MODE`: process or none")
	rf.store.register(fs, "", "the state, if the run pauses again, (its handle goes to the --pause FILE), and read FILE's handle from it")
	if err := a.parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 1 {
		return 0, usagef("resume", "want one FILE, the state of a paused run (codeexec run --pause FILE)")
	}
	from := fs.Arg(0)
	content, err := os.ReadFile(from)
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	if err := rf.check(); err != nil {
		return 0, err
	}
	if err := rf.store.open(ctx); err != nil {
		return 0, err
	}
	defer rf.store.close()
	state, handle, err := rf.store.takeState(ctx, content)
	if err != nil {
		return exitUsage, fmt.Errorf("resume %s: %w", from, err)
	}
	if err := checkPatterns("resume", *confirm); err != nil {
		return 0, err
	}
	if pf.file == "" {
		pf.file = from
	}
	_, stopTracing, err := a.tracing(ctx, &rf, a.warnTraces)
	if err != nil {
		return 0, err
	}
	defer stopTracing()
	runner, set, err := a.pausingRunner(ctx, &rf, &pf, *confirm, nil)
	if err != nil {
		return 0, err
	}
	defer runner.Close()
	defer set.Close()
	requests, err := runner.Requests(state)
	if err != nil {
		return exitUsage, fmt.Errorf("resume %s: %w", from, err)
	}
	responses, err := answers(requests, *approve, *deny, *results, *failures)
	if err != nil {
		return exitUsage, fmt.Errorf("resume %s: %w", from, err)
	}
	ro, _, done := a.runOutput("", *asJSON, *trace, set.Registry().Lookup)
	res := runner.Resume(ctx, state, responses, ro)
	done()
	var stateErr *codeexec.StateError
	if res.Error == nil || !errors.As(res.Error, &stateErr) {
		rf.store.dropState(handle)
	}
	return a.finish(ctx, res, *asJSON, pf.file, &rf.store)
}

// answers builds the responses to requests from resume's flags; every
// request must get exactly one, and every flag must name a request.
func answers(requests []codeexec.InputRequest, approve, deny, results, failures []string) (map[string]codeexec.Response, error) {
	kinds := map[string]codeexec.InputKind{}
	for _, q := range requests {
		kinds[q.ID] = q.Kind
	}
	out := map[string]codeexec.Response{}
	set := func(flag, id string, kind codeexec.InputKind, r codeexec.Response) error {
		k, ok := kinds[id]
		switch {
		case !ok:
			return fmt.Errorf("--%s %s: the run has no such request (it waits for %s)", flag, id, requestList(requests))
		case k != kind:
			return fmt.Errorf("--%s %s: the call waits for %s, not for this answer", flag, id, map[codeexec.InputKind]string{codeexec.InputApproval: "an approval (--approve or --deny)", codeexec.InputTool: "the caller's result (--result or --error)"}[k])
		}
		if _, dup := out[id]; dup {
			return fmt.Errorf("--%s %s: the request has another answer already", flag, id)
		}
		out[id] = r
		return nil
	}
	decide := func(flag string, ids []string, r codeexec.Response) error {
		for _, id := range ids {
			if id != "all" {
				if err := set(flag, id, codeexec.InputApproval, r); err != nil {
					return err
				}
				continue
			}
			for _, q := range requests {
				if _, done := out[q.ID]; q.Kind == codeexec.InputApproval && !done {
					out[q.ID] = r
				}
			}
		}
		return nil
	}
	if err := decide("approve", approve, codeexec.Response{Approved: true}); err != nil {
		return nil, err
	}
	if err := decide("deny", deny, codeexec.Response{}); err != nil {
		return nil, err
	}
	for _, kv := range results {
		id, raw, ok := strings.Cut(kv, "=")
		var v any
		if !ok || json.Unmarshal([]byte(raw), &v) != nil {
			return nil, fmt.Errorf("--result %q: want ID=JSON, such as call_2='{\"n\": 1}'", kv)
		}
		res := registry.Result{Content: []registry.Content{registry.TextContent(raw)}, Details: json.RawMessage(raw)}
		if s, isString := v.(string); isString {
			res = registry.Result{Content: []registry.Content{registry.TextContent(s)}}
		}
		if err := set("result", id, codeexec.InputTool, codeexec.Response{Result: res}); err != nil {
			return nil, err
		}
	}
	for _, kv := range failures {
		id, msg, ok := strings.Cut(kv, "=")
		if !ok || msg == "" {
			return nil, fmt.Errorf("--error %q: want ID=MESSAGE", kv)
		}
		if err := set("error", id, codeexec.InputTool, codeexec.Response{Error: msg}); err != nil {
			return nil, err
		}
	}
	var missing []string
	for _, q := range requests {
		if _, ok := out[q.ID]; !ok {
			missing = append(missing, q.ID+" ("+q.Text+")")
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("no answer for %s: give each request --approve, --deny, --result or --error", strings.Join(missing, ", "))
	}
	return out, nil
}

// requestList names requests for an error message.
func requestList(requests []codeexec.InputRequest) string {
	ids := make([]string, len(requests))
	for i, q := range requests {
		ids[i] = q.ID
	}
	return strings.Join(ids, ", ")
}

// pausingRunner starts the Runner of a run that may pause: the tools of
// the flags, the caller-served tools, and --confirm patterns that pause
// the run for approval.
func (a *app) pausingRunner(ctx context.Context, rf *runnerFlags, pf *pauseFlags, confirm []string, session func() (*builtin.Session, error)) (*codeexec.Runner, *toolset.Set, error) {
	key, err := stateKey()
	if err != nil {
		return nil, nil, err
	}
	rf.stateKey = key
	runner, set, err := a.startRunner(ctx, rf, 0, session)
	if err != nil {
		return nil, nil, err
	}
	reg := set.Registry()
	if err := pf.addCallerTools(reg); err != nil {
		_ = set.Close()
		_ = runner.Close()
		return nil, nil, err
	}
	if len(confirm) > 0 {
		reg.OnToolCall(func(_ context.Context, ev registry.ToolCallEvent) string {
			if matchAny(confirm, ev.Name) {
				return registry.Ask
			}
			return ""
		})
	}
	return runner, set, nil
}
