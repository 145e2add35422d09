# OpenBench and other testers build engines with `make EXE=<path>`.
# The engine is built for the host CPU in its own target directory, so that this build and
# the ordinary `cargo build` (default target) do not invalidate each other.

EXE ?= augur
CARGO ?= cargo
NATIVE_DIR := target/native

.PHONY: all bench clean fuzz

all:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release -p augur --target-dir $(NATIVE_DIR)
	cp $(NATIVE_DIR)/release/augur $(EXE)

bench: all
	./$(EXE) bench

# Every fuzz target for FUZZ_SECONDS each (nightly and cargo-fuzz needed; see fuzz/run.sh).
FUZZ_SECONDS ?= 60
fuzz:
	fuzz/run.sh $(FUZZ_SECONDS)

clean:
	$(CARGO) clean
	rm -f augur
