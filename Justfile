# Conveniences on top of the go commands the README shows; nothing here is
# the only way to do something.

default:
    @just --list

# Run an experiment (default: the embedded quickstart), e.g. just run experiments/quickstart.hcl --jobs 2
run file="experiments/quickstart.hcl" *flags:
    go run ./cmd/schedsweep run {{flags}} {{file}}

# Run the tests (the README's test command).
test:
    go test ./...

# Run every benchmark; pass e.g. count=10 for benchstat input.
bench count="1":
    go test -run '^$' -bench . -benchmem -count {{count}} ./...

# Format the code.
fmt:
    gofmt -w .

# Vet and check formatting.
lint:
    go vet ./...
    test -z "$(gofmt -l .)"
    go tool gocognit -over 40 .

# Search for new failing inputs for a while.
fuzz time="60s":
    go test -run '^$' -fuzz '^FuzzSWFLine$' -fuzztime {{time}} -fuzzminimizetime 10s ./workloads
    go test -run '^$' -fuzz '^FuzzSimulate$' -fuzztime {{time}} -fuzzminimizetime 10s ./policies
    go test -run '^$' -fuzz '^FuzzExperiment$' -fuzztime {{time}} -fuzzminimizetime 10s ./runner/spec
    go test -run '^$' -fuzz '^FuzzFormat$' -fuzztime {{time}} -fuzzminimizetime 10s ./runner/spec

# Simulate a policy on a trace, e.g. just simulate easy ../shared/workloads/KTH-SP2-1996-2.1-cln.swf.gz
simulate policy trace *flags:
    go run ./cmd/schedsweep simulate --policy {{policy}} {{flags}} {{trace}}

# Regenerate every figure of experiments/README.md (runs the studies first).
figures traces="../shared/workloads":
    experiments/figures.sh {{traces}}

# The full CI run.
ci:
    .ci/run
