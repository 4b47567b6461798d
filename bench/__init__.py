"""handfoot's benchmarks (``make bench``): engine, API, storage and memory, each against a floor of
our own stack measured in the same run. Not part of ``make test``; see docs/performance.md."""
