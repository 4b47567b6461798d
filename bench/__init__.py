"""handfoot's benchmarks (``make bench``): engine, API, storage and memory, each against a floor
measured in the same run; the API's floors are a bare Flask app of their own (bench/floor_app.py).
Not part of ``make test``: ``make bench-check`` runs their own tests (bench/tests) first. See
docs/performance.md."""
