# codeexec: run TypeScript snippets whose tools are async functions.
GO          ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
PKGS        := ./...
BENCHTIME   ?= 2s
COUNT       ?= 1
FUZZTIME    ?= 60s

.PHONY: help build test hostile test-node test-patched test-loaded update lint fmt vet check bench bench-cli bench-node fuzz soak interop

## help: list the targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  /'

## build: build the codeexec binary into ./bin, statically linked
# Without cgo (which only net's system DNS resolver would use; Go's own
# resolver serves instead) the binary is static: no dynamic loader and libc
# to start, in the CLI and again in each worker, which takes about a
# seventh off a trivial run's start.
build:
	CGO_ENABLED=0 $(GO) build -o bin/codeexec ./cmd/codeexec

## test: run the tests a contributor runs before every commit (CI runs them, then hostile, interop and test-node)
# -short leaves the long hostile cases (half a second or more each) to
# `make hostile`. -p 4 runs four test binaries at once on two cores: many
# tests wait on processes, pipes and peers, and the go command links the
# next binaries meanwhile; with -p 2 (the default) both cores idle a third
# of the time (docs/testing.md).
TESTFLAGS ?= -short -p 4
test:
	$(GO) test $(TESTFLAGS) $(PKGS)

## hostile: the whole hostile suite, its long cases too, uncached (CI runs it)
hostile:
	$(GO) test -count=1 ./hostile

## test-node: compare console output and the Node globals with node v20 on their corpora (needs node; CI runs it)
test-node:
	CODEEXEC_TEST_NODE=1 $(GO) test -count=1 -run 'MatchesNode|MatchNode' ./runtime/...

## test-patched: each patched dependency's own tests on its copy in third_party/ (goja, the MCP Go SDK; CI runs it)
test-patched:
	cd third_party/goja && $(GO) test ./...
	cd third_party/go-sdk && $(GO) test -skip '^$(SDK_RACY)$$' ./...

# SDK_RACY: an MCP SDK test that races with the server it tests (see third_party/go-sdk/PATCH.md)
SDK_RACY = TestStreamableStateful_DiscoverDoesNotLeakSession

## test-loaded: run make test's suite, uncached, N times (N=5) beside two CPU hogs (needs stress-ng) and report the passes
N ?= 5
test-loaded:
	GO=$(GO) PKGS='$(PKGS)' TESTFLAGS='$(TESTFLAGS)' scripts/test-loaded $(N)

## update: rewrite golden files (txtar scripts and promptgen goldens)
update:
	$(GO) test ./cmd/codeexec ./promptgen ./registry/signature -update

## fmt: check that gofmt has nothing to change
fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## vet: go vet, here and for macOS and Windows (where the library builds without process isolation)
vet:
	$(GO) vet $(PKGS)
	GOOS=darwin $(GO) vet $(PKGS)
	GOOS=windows $(GO) vet $(PKGS)

## lint: staticcheck, plus a check that only cmd/ (and the bench/ harnesses and examples/ programs) touch the process's stdout and stderr
lint:
	$(GO) run $(STATICCHECK) $(PKGS)
	@bad=$$(git grep -nE 'os\.(Stdout|Stderr)|fmt\.Print(ln|f)?\(' -- '*.go' ':!cmd/' ':!bench/' ':!examples/' ':!third_party/' ':!*_test.go'); \
	if [ -n "$$bad" ]; then echo "process output outside cmd/:"; echo "$$bad"; exit 1; fi

## check: format, vet, lint and tests with the race detector (what to run before pushing)
check: fmt vet lint
	$(GO) test -race $(PKGS)

## bench: run the benchmarks (BENCHTIME=2s, COUNT=1; the figures in docs/performance.md are COUNT=3)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(COUNT) . ./runtime ./bindings ./isolation

## bench-cli: wall time of the CLI running a trivial script, median of 50 runs, in both isolation modes
bench-cli: build
	$(GO) run ./bench/clitime -n 50 -- bin/codeexec run -e 'return 1'
	$(GO) run ./bench/clitime -n 50 -- bin/codeexec run --isolation none -e 'return 1'

## bench-node: every performance goal beside its peer (node vm, the Node MCP server, codeexec in process, plain goja, isolated-vm where it installs), as a Markdown table written into docs/performance.md (NODE_TABLE= only prints it; needs node)
# The Node peers come from npm, pinned by bench/node/package.json and its
# lock: the MCP SDK and esbuild of the Node MCP server (bench/node/mcp-server.mjs),
# and isolated-vm, an optional dependency (it builds a native module).
# ROUNDS is the alternating rounds of each figure.
NODE_TABLE ?= docs/performance.md
ROUNDS     ?= 5
bench-node: build
	@npm ci --prefix bench/node --no-audit --no-fund >/dev/null 2>&1 || echo "bench-node: npm ci --prefix bench/node failed; the rows of the Node MCP server are skipped"
	$(GO) run ./bench/nodecompare -codeexec bin/codeexec -node-path bench/node/node_modules -rounds $(ROUNDS) -write '$(NODE_TABLE)'

## interop: install the pinned MCP peers (npm ci into .ci/node_modules) and run the packages whose tests run them under node (which make test's -short skips), which must not skip (CI runs it)
interop:
	npm ci --prefix .ci --no-audit --no-fund
	CI=true $(GO) test -count=1 ./mcp ./registry/mcptools ./cmd/codeexec

## fuzz: run every fuzz target for FUZZTIME each (FUZZTIME=60s)
fuzz:
	$(GO) test ./registry/signature -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./registry/signature -run '^$$' -fuzz '^FuzzFromSchema$$' -fuzztime $(FUZZTIME)
	$(GO) test ./registry -run '^$$' -fuzz '^FuzzCompileSchema$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/transform -run '^$$' -fuzz '^FuzzTransform$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/transform -run '^$$' -fuzz '^FuzzCompileSession$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/transform -run '^$$' -fuzz '^FuzzNeedsTransform$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime/convert -run '^$$' -fuzz '^FuzzExportData$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzJSONSyntaxMessage$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzRun$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzSessionRun$$' -fuzztime $(FUZZTIME)
	$(GO) test ./runtime -run '^$$' -fuzz '^FuzzMemberHint$$' -fuzztime $(FUZZTIME)
	$(GO) test ./builtin -run '^$$' -fuzz '^FuzzPaths$$' -fuzztime $(FUZZTIME)
	$(GO) test ./isolation -run '^$$' -fuzz '^FuzzReadFrame$$' -fuzztime $(FUZZTIME)

## soak: 10,000 runs in one process (normal and hostile); goroutines, fds and RSS must stay flat
soak:
	$(GO) test ./hostile -run '^TestSoak$$' -soak 10000 -v -timeout 30m
