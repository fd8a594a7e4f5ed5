# ai-heart: make build | test | run | bench | lint | cross | dist
GO      ?= go
BIN     := bin
PKGS    := ./...

# The build's identity, stamped into the three binaries (--version,
# mcp-heart's MCP server info). VERSION is the release's; a tag overrides it.
VERSION ?= $(shell git describe --tags --exact-match 2>/dev/null | sed 's/^v//' || true)
ifeq ($(VERSION),)
VERSION := 0.1.0-dev
endif
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
VPKG    := github.com/ai-heart/ai-heart/internal/version
LDFLAGS := -X $(VPKG).version=$(VERSION) -X $(VPKG).commit=$(COMMIT) -X $(VPKG).date=$(DATE)

.PHONY: build test run watch bench lint cross clean e2e-clients dist soak

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/mcp-heart ./cmd/mcp-heart
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/watchdog ./cmd/watchdog
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/heart-hook ./cmd/heart-hook

# Everything under the race detector, then the fleet timing test without it
# (timings under -race mean nothing; the test skips itself there), then
# .ci/leakcheck: every process the tests started carries the marker
# AIHEART_TEST_RUN, and none may outlive them.
test:
	$(GO) vet $(PKGS)
	export AIHEART_TEST_RUN=make-test-$$$$-$$(date +%s); rc=0; \
	$(GO) test -race -count=1 -timeout 20m $(PKGS) || rc=$$?; \
	if [ $$rc -eq 0 ]; then $(GO) test -count=1 -run '^TestFleet$$' -v ./internal/daemon/ || rc=$$?; fi; \
	env -u AIHEART_TEST_RUN .ci/leakcheck $$AIHEART_TEST_RUN || rc=1; \
	exit $$rc

# The whole loop in about two minutes, no model and no account: a scripted
# agent's day in ./ai-heart-demo, narrated, with the status page.
run: build
	./$(BIN)/watchdog demo

# A real workspace: initialise ./ai-works if absent and run the watchdog on
# it (inbox delivery, built-in defaults).
watch: build
	@test -d ai-works || ./$(BIN)/watchdog init ai-works
	./$(BIN)/watchdog run

# A week alone in ten minutes (e2e/soak): the real watchdog and mcp-heart
# on scaled time beside a random stand-in agent, with reloads, kill -9
# restarts, full disks, pauses and a broker outage; the invariants checked
# at the end. SOAK_DURATION (10m) sets its length, SOAK_SEED replays a
# timetable.
soak:
	$(GO) vet -tags soak ./e2e/soak/
	export AIHEART_TEST_RUN=make-soak-$$$$-$$(date +%s); rc=0; \
	$(GO) test -tags soak -count=1 -v -run '^TestSoak$$' -timeout 90m ./e2e/soak/ || rc=$$?; \
	env -u AIHEART_TEST_RUN .ci/leakcheck $$AIHEART_TEST_RUN || rc=1; \
	exit $$rc

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# staticcheck is a tool dependency pinned in go.mod (go tool builds it from
# the module cache, fetching it on a fresh machine): no install step.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: $$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

# mcp-heart must build for the platforms Claude Desktop runs on.
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/mcp-heart
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/mcp-heart
	GOOS=linux GOARCH=amd64 $(GO) build -o /dev/null ./cmd/mcp-heart
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/heart-hook

clean:
	rm -rf $(BIN)

# The real agent clients (Gemini CLI, Claude Code, Codex) from npm into a cache
# folder, driven by scripted stand-ins for their model APIs on loopback
# (e2e/clients). Without the npm registry the tests skip.
#
# Then the newest release of each client, asked of the registry at test time,
# into its own folder (.ci/clients-newest: a client whose newest is the pinned
# one is skipped, said so): by default a representative part of the suite
# (NEWEST_TESTS: hooks wired as init writes them, an exec run with telemetry
# booked, a permission dialog held in tmux, the budget gate), about 4 minutes;
# E2E_NEWEST=all runs the whole suite there too, E2E_NEWEST=off none.
CLIENTS ?= $(HOME)/.cache/ai-heart/clients
CLIENTS_NEWEST ?= $(HOME)/.cache/ai-heart/clients-newest
CLIENT_PKGS := @google/gemini-cli@0.61.0 @anthropic-ai/claude-code@2.1.197 @openai/codex@0.169.0
E2E_NEWEST ?= subset
NEWEST_TESTS := ^Test(ClaudeCode|GeminiCLI|Codex)(HooksProveLife|BudgetRefusesMidTurn|InTmuxPermissionPromptWaitsForYou)$$|^TestInitTurns(ClaudeCode|GeminiCLI|Codex)TelemetryOn$$|^TestCodexPermissionHookHidesItsApproval$$
e2e-clients:
	@mkdir -p $(CLIENTS)
	@export AIHEART_TEST_RUN=make-e2e-clients-$$$$-$$(date +%s); rc=0; \
	if npm install --prefix $(CLIENTS) --no-audit --no-fund $(CLIENT_PKGS) >$(CLIENTS)/npm.log 2>&1; then \
		AIHEART_CLIENTS_DIR=$(CLIENTS) $(GO) test -count=1 -v -parallel 3 -timeout 30m ./e2e/clients/ || rc=$$?; \
		AIHEART_CLIENTS_DIR=$(CLIENTS) $(GO) test -count=1 -v -run '^TestReal' ./internal/setup/ || rc=$$?; \
	else \
		echo "npm install failed (see $(CLIENTS)/npm.log): the real-client tests skip"; \
		$(GO) test -count=1 -v ./e2e/clients/ || rc=$$?; \
	fi; \
	case "$(E2E_NEWEST)" in \
	off) echo "newest clients: skipped (E2E_NEWEST=off)";; \
	*) if .ci/clients-newest $(CLIENTS_NEWEST) $(CLIENT_PKGS); then \
		run='$(NEWEST_TESTS)'; [ "$(E2E_NEWEST)" = all ] && run=.; \
		echo "newest clients ($(E2E_NEWEST)): $$(cat $(CLIENTS_NEWEST)/package.json | tr -d ' \n')"; \
		AIHEART_CLIENTS_DIR=$(CLIENTS_NEWEST) $(GO) test -count=1 -v -parallel 3 -timeout 30m -run "$$run" ./e2e/clients/ || rc=$$?; \
		if [ "$(E2E_NEWEST)" = all ]; then AIHEART_CLIENTS_DIR=$(CLIENTS_NEWEST) $(GO) test -count=1 -v -run '^TestReal' ./internal/setup/ || rc=$$?; fi; \
	fi;; \
	esac; \
	env -u AIHEART_TEST_RUN .ci/leakcheck $$AIHEART_TEST_RUN || rc=1; \
	exit $$rc


# Release archives (dist/*.tar.gz, *.zip, checksums.txt) by GoReleaser and
# the Debian package (dist/ai-heart_VERSION_amd64.deb; Debian spells an
# untagged VERSION 0.1.0-dev as 0.1.0~dev) by nFPM, each at a pinned
# version, built from the Go module proxy into a cache folder. Every entry
# carries the commit's time, and the builds run one at a time (an archive
# lists its binaries in the order their builds ended): the same commit
# builds the same files (.ci/dist-check).
TOOLS      ?= $(HOME)/.cache/ai-heart/tools
GORELEASER := github.com/goreleaser/goreleaser/v2@v2.15.1
NFPM       := github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2
DEB_ARCH   ?= amd64

$(TOOLS)/goreleaser:
	GOBIN=$(TOOLS) $(GO) install $(GORELEASER)
$(TOOLS)/nfpm:
	GOBIN=$(TOOLS) $(GO) install $(NFPM)

dist: $(TOOLS)/goreleaser $(TOOLS)/nfpm
	VERSION=$(VERSION) COMMIT=$(COMMIT) DATE=$(DATE) DATE_UNIX=$$(git log -1 --format=%ct) $(TOOLS)/goreleaser release --snapshot --clean --parallelism 1
	VERSION=$(VERSION) ARCH=$(DEB_ARCH) WATCHDOG_DIR=dist/watchdog_linux_$(DEB_ARCH)_v1 MCPHEART_DIR=dist/mcp-heart_linux_$(DEB_ARCH)_v1 \
		HOOK_DIR=dist/heart-hook_linux_$(DEB_ARCH)_v1 SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct) \
		$(TOOLS)/nfpm package -f deploy/package/nfpm.yaml -p deb -t dist/
	cd dist && sha256sum *.deb >> checksums.txt
