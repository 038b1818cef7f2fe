# gate as a static binary on a distroless base: the decision point of a
# fleet (/v1/decide, /mcp, metrics). The image has no shell, so calls that
# run commands (/v1/call with run_shell_command, sessions) fail there: to run
# commands in a container, build FROM a base with bash instead and keep the
# same binary. deploy/compose runs three of these behind one bundle server.
#
#   docker build -t gate .
#   docker run --rm gate version
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The binary is static (no libc): cmd/gate's TestDockerBuildIsStatic runs
# this same command and checks it.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/gate ./cmd/gate

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gate /gate
USER nonroot
EXPOSE 8787
ENTRYPOINT ["/gate"]
CMD ["version"]
