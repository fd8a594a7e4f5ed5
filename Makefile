# ai-heart: make build | test | run | bench | lint | cross
GO      ?= go
BIN     := bin
PKGS    := ./...

.PHONY: build test run bench lint cross clean

build:
	$(GO) build -o $(BIN)/mcp-heart ./cmd/mcp-heart
	$(GO) build -o $(BIN)/watchdog ./cmd/watchdog

# Everything under the race detector, then the fleet timing test without it
# (timings under -race mean nothing; the test skips itself there).
test:
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 $(PKGS)
	$(GO) test -count=1 -run '^TestFleet$$' -v ./internal/daemon/

# Initialise ./ai-works if absent and run the watchdog on it (inbox delivery).
run: build
	@test -d ai-works || ./$(BIN)/watchdog init ai-works
	./$(BIN)/watchdog run

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt: $$out"; exit 1; fi
	$(GO) vet $(PKGS)

# mcp-heart must build for the platforms Claude Desktop runs on.
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/mcp-heart
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/mcp-heart
	GOOS=linux GOARCH=amd64 $(GO) build -o /dev/null ./cmd/mcp-heart

clean:
	rm -rf $(BIN)
