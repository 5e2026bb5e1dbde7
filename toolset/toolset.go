package toolset

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/codeexec/codeexec/builtin"
	"github.com/codeexec/codeexec/promptgen"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/external"
	"github.com/codeexec/codeexec/registry/mcptools"
)

// Config says which tools a Set holds. The zero value is the built-in
// tools confined to the working directory, with the planning tools over a
// new session, and the catalog tools when they are needed. Zero fields of
// the nested options take those packages' defaults.
type Config struct {
	// NoBuiltins leaves out the built-in tools (read, write, edit, bash,
	// grep, ls, find) and the planning tools.
	NoBuiltins bool
	// Builtins configure the built-in tools (see builtin.Options): the
	// Root they are confined to ("" is the working directory, which must
	// exist) and their limits. A Root with NoBuiltins is an error.
	Builtins builtin.Options
	// Session is the planning tools' state, which the caller owns (to
	// load it before and save it after); nil means a new one. Set.Session
	// returns the one in use.
	Session *builtin.Session

	// ToolsDirs are directories of executable tools (see
	// registry/external), searched in order: a later directory's tool
	// overrides an earlier one's of the same name, and an executable tool
	// overrides a built-in of its name.
	ToolsDirs []string
	// External configure the discovery of the executable tools and their
	// calls (see external.Options: SchemaTimeout, CallTimeout, ...).
	External external.Options

	// MCPConfigFile is a file in the {"mcpServers": {...}} format of MCP
	// clients (see mcptools.LoadConfig); each server's tools join the set,
	// bound under a global named after the server. It is read before
	// anything is opened.
	MCPConfigFile string
	// MCP is such a configuration already read, given instead of
	// MCPConfigFile; setting both is an error.
	MCP *mcptools.Config
	// MCPOptions configure the connections to the MCP servers (see
	// mcptools.ClientOptions: StartTimeout, MaxMessageBytes).
	MCPOptions mcptools.ClientOptions
}

// ConfigError is Open's error about its Config: a field that cannot take
// its value, fields that contradict each other, or an MCP configuration
// file that does not load. Error names the fields as Go does
// ("Builtins.Root"); Message names them in the caller's own words, so that
// a command line can report its flags.
type ConfigError struct {
	// Field is the field at fault, as a Go selector from Config
	// ("External.SchemaTimeout").
	Field string
	// Err is the cause when the field's value failed to load (the error
	// of mcptools.LoadConfig, naming the file), else nil.
	Err error
	// say words the error, naming each field with name.
	say func(name func(field string) string) string
}

// Error words the error with the fields' Go names, after "toolset: ".
func (e *ConfigError) Error() string { return "toolset: " + e.Message(nil) }

// Message words the error naming each field it mentions as name(field)
// says, for example "--root" for "Builtins.Root"; a nil name keeps the
// Go names. It has no "toolset: " prefix.
func (e *ConfigError) Message(name func(field string) string) string {
	if name == nil {
		name = func(field string) string { return field }
	}
	return e.say(name)
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// Warning is something Open left out while the rest of the set is usable:
// an executable tool that failed to describe itself or was refused, an MCP
// server that failed to start or list its tools, a tool the registry
// refused. A tool overriding another by the documented rule is not one.
type Warning struct {
	// Err says what happened, naming the tool (an executable's path) or
	// the MCP server (and its tool). It is never nil.
	Err error
	// TimedOut reports an executable tool whose --schema run did not
	// finish within External.SchemaTimeout: a longer one may let it in.
	TimedOut bool
}

// String returns the text of Err.
func (w Warning) String() string { return w.Err.Error() }

// Set is the tools Open registered and what they hold open: the built-in
// tools' root directory and the MCP servers' connections (a stdio
// server's process). Its methods are safe for concurrent use.
type Set struct {
	reg      *registry.Registry
	session  *builtin.Session
	builtins *builtin.Toolset
	clients  mcptools.Clients

	once     sync.Once
	closeErr error
}

// Registry returns the registry the tools are registered in: the one
// given to Open, or the one it made.
func (s *Set) Registry() *registry.Registry { return s.reg }

// Session returns the planning tools' state (Config.Session, or the one
// Open made); nil without the built-in tools.
func (s *Set) Session() *builtin.Session { return s.session }

// Close stops the MCP servers (in parallel; a stdio server's process group
// is gone when it returns) and then releases the built-in tools' root. Call
// it once the runs that use the tools have ended: calls made afterwards
// fail. It is idempotent, returns the first call's errors joined, and is a
// no-op on a nil Set, so that it may be deferred before Open's error is
// checked.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		var errs []error
		if err := s.clients.Close(); err != nil {
			errs = append(errs, fmt.Errorf("toolset: close MCP servers: %w", err))
		}
		if s.builtins != nil {
			if err := s.builtins.Close(); err != nil {
				errs = append(errs, fmt.Errorf("toolset: close built-in tools: %w", err))
			}
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// Open registers in reg (a new registry when nil) the tools cfg describes,
// in this order:
//
//   - the built-in tools and the planning tools over cfg.Session;
//   - the executable tools of cfg.ToolsDirs (external.Discover), a later
//     directory's overriding an earlier one's and a built-in of the same
//     name (registry.Override);
//   - the tools of the MCP servers of cfg.MCPConfigFile or cfg.MCP
//     (mcptools.ConnectAll), started in parallel;
//   - search_tools and tool_doc (CatalogTools), when the tools are too many
//     for the prompt: promptgen.NeedsCatalog with the default budget, the
//     test promptgen.Render applies, so that the prompt and the run agree.
//
// It refuses a Config that contradicts itself with a *ConfigError (before
// opening anything); it fails when the built-in tools' root cannot be
// opened, a tools directory cannot be read, ctx ends during discovery, or a
// built-in or catalog tool cannot be registered (a name reg already holds).
// A tool or server that fails on its own is left out with a Warning; the
// warnings come in the order above, and are returned (those gathered so
// far) on error too. On error Open has closed what it opened and returns a
// nil Set; the tools it registered before the failure stay in reg, and
// fail when called: discard reg. ctx bounds discovery and the servers'
// start; the Set lives until Close, whatever becomes of ctx.
func Open(ctx context.Context, reg *registry.Registry, cfg Config) (*Set, []Warning, error) {
	if err := cfg.check(); err != nil {
		return nil, nil, err
	}
	mcpConfig := cfg.MCP
	if cfg.MCPConfigFile != "" {
		var err error
		if mcpConfig, err = mcptools.LoadConfig(cfg.MCPConfigFile); err != nil {
			return nil, nil, &ConfigError{Field: "MCPConfigFile", Err: err, say: func(name func(string) string) string {
				return name("MCPConfigFile") + ": " + err.Error()
			}}
		}
	}
	if reg == nil {
		reg = registry.New()
	}
	s := &Set{reg: reg}
	var warnings []Warning
	fail := func(err error) (*Set, []Warning, error) {
		_ = s.Close()
		return nil, warnings, err
	}
	if !cfg.NoBuiltins {
		ts, err := builtin.Open(cfg.Builtins)
		if err != nil {
			return nil, nil, err
		}
		s.builtins = ts
		s.session = cfg.Session
		if s.session == nil {
			s.session = &builtin.Session{}
		}
		for _, t := range append(ts.Tools(), builtin.PlanningTools(s.session)...) {
			if err := reg.Register(t); err != nil {
				return fail(fmt.Errorf("register built-in tools: %w", err))
			}
		}
	}
	if len(cfg.ToolsDirs) > 0 {
		found, ws, err := external.Discover(ctx, cfg.ToolsDirs, cfg.External)
		if err != nil {
			return fail(err)
		}
		for _, w := range ws {
			if w.Kind != external.KindOverridden {
				warnings = append(warnings, Warning{Err: errors.New(w.String()), TimedOut: w.TimedOut})
			}
		}
		for _, t := range found {
			register := reg.Register
			if _, exists := reg.Lookup(t.Name); exists {
				register = reg.Override
			}
			if err := register(t); err != nil {
				warnings = append(warnings, Warning{Err: fmt.Errorf("%s: %w", t.Source, err)})
			}
		}
	}
	if mcpConfig != nil {
		clients, ws := mcptools.ConnectAll(ctx, reg, mcpConfig, cfg.MCPOptions)
		s.clients = clients
		for _, w := range ws {
			warnings = append(warnings, Warning{Err: w})
		}
	}
	if promptgen.NeedsCatalog(reg.Summaries(), promptgen.Options{}) {
		for _, t := range CatalogTools(reg.Tools) {
			if err := reg.Register(t); err != nil {
				return fail(fmt.Errorf("register the catalog tools: %w", err))
			}
		}
	}
	return s, warnings, nil
}

// check refuses a Config that contradicts itself or holds a negative
// limit (the packages behind it refuse some of those too, but later, and
// without naming the field).
func (cfg *Config) check() error {
	switch {
	case cfg.NoBuiltins && cfg.Builtins.Root != "":
		return &ConfigError{Field: "Builtins.Root", say: func(name func(string) string) string {
			return fmt.Sprintf("%s only applies to the built-in tools, which %s turns off", name("Builtins.Root"), name("NoBuiltins"))
		}}
	case cfg.MCPConfigFile != "" && cfg.MCP != nil:
		return &ConfigError{Field: "MCP", say: func(name func(string) string) string {
			return fmt.Sprintf("%s and %s both name MCP servers; give one", name("MCPConfigFile"), name("MCP"))
		}}
	}
	for _, d := range []struct {
		field string
		value int64
		text  string
	}{
		{"External.SchemaTimeout", int64(cfg.External.SchemaTimeout), cfg.External.SchemaTimeout.String()},
		{"External.CallTimeout", int64(cfg.External.CallTimeout), cfg.External.CallTimeout.String()},
		{"MCPOptions.StartTimeout", int64(cfg.MCPOptions.StartTimeout), cfg.MCPOptions.StartTimeout.String()},
		{"MCPOptions.MaxMessageBytes", int64(cfg.MCPOptions.MaxMessageBytes), fmt.Sprint(cfg.MCPOptions.MaxMessageBytes)},
	} {
		if d.value < 0 {
			return &ConfigError{Field: d.field, say: func(name func(string) string) string {
				return fmt.Sprintf("%s must not be negative (zero is the default), got %s", name(d.field), d.text)
			}}
		}
	}
	return nil
}
