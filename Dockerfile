# The conformance runner with Node.js and the adapter of the published package
# (conformance/adapters/node-upstream, both contract releases installed):
#
#   docker build -t conformance-runner .
#   docker run --rm conformance-runner                       # certify the embedded reference
#   docker run --rm conformance-runner --adapter 'node /opt/sessionref-kit/conformance/adapters/node-upstream/adapter.js'
#   docker run --rm -v "$PWD:/port" conformance-runner --adapter 'node adapter.mjs'   # your Node port, from /port
#
# The Go and Node versions follow go.mod and the adapter's engines (a test checks them).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/conformance-runner ./cmd/conformance-runner

FROM node:20-bookworm-slim
WORKDIR /opt/sessionref-kit
COPY conformance/adapters/node-upstream/ conformance/adapters/node-upstream/
RUN cd conformance/adapters/node-upstream \
    && npm ci --omit=dev --no-audit --no-fund --loglevel=error \
    && cd profiles/0.1.0-rc.8 \
    && npm ci --omit=dev --no-audit --no-fund --loglevel=error \
    && npm cache clean --force
COPY --from=build /out/conformance-runner /usr/local/bin/conformance-runner
WORKDIR /port
ENTRYPOINT ["conformance-runner"]
