# rallyjudge's build targets. Everything is plain `go`; the Makefile only names the
# release build. The Go version is the one go.mod names (go 1.26.8).

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X main.version=$(VERSION)
PLATFORMS := linux/amd64 linux/arm64 darwin/arm64 freebsd/amd64
DIST := dist

.PHONY: build install test release clean

build:
	go build -o rallyjudge ./cmd/rallyjudge

install:
	go install ./cmd/rallyjudge

test:
	go test ./...

# release: static, reproducible binaries for each platform in dist/, stamped with
# VERSION (rallyjudge version prints it), and their SHA-256 sums.
release:
	@mkdir -p $(DIST)
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; out=$(DIST)/rallyjudge-$(VERSION)-$$os-$$arch; \
		echo "build $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch go build -trimpath -ldflags "$(LDFLAGS)" -o $$out ./cmd/rallyjudge || exit 1; \
	done
	cd $(DIST) && sha256sum rallyjudge-$(VERSION)-* > SHA256SUMS-$(VERSION)

clean:
	rm -rf $(DIST) rallyjudge
