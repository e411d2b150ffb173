# Makefile — wraps CMake. `make run` and `make test` are the two Quick start commands.
# Each target installs what is missing first (tools/deps.sh), so a fresh machine needs nothing else.
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
BUILD     ?= build
ASAN      ?= build-asan
FUZZBUILD ?= build-fuzz
FUZZ_SECONDS ?= 20
# `make fuzz-long`: each target until FUZZ_LONG_RUNS inputs or FUZZ_LONG_SECONDS, whichever comes
# first (0 lifts a limit), on FUZZ_LONG_JOBS cores; corpus kept in $(FUZZBUILD)/fuzz-long/.
FUZZ_LONG_RUNS ?= 10000000
FUZZ_LONG_SECONDS ?= 3600
FUZZ_LONG_JOBS ?= $(JOBS)
FUZZ_LONG_TARGETS ?=
FUZZ_LONG_MERGE ?= 0
CFILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find core rulesets ai io display tools tests -name '*.[ch]')

.PHONY: all deps build run test test-unit test-asan fuzz fuzz-long fuzz-build format format-check check-names clean soak

all: build

deps:
	@bash tools/deps.sh

# `make build` and `make run` build the playable rulesets only; the test stages add the
# test-only ones (rulesets/*/ruleset.cmake with RULESET_TEST_ONLY, e.g. the duel) in the same
# build folder (a reconfigure).
build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPFOR_TEST_RULESETS=OFF >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The daemon on a temporary socket with the default scenario, and the terminal Patrol Mode game
# played against it (tools/run.sh). Games and scores stay in the user's state directory
# ($XDG_STATE_HOME/opfor, else ~/.local/state/opfor): `make run GAME=ID` takes a game up again.
# WEB: the table page's address (docs/web.md); empty: http://127.0.0.1:0 (a free port, printed);
# none: no page.
GAME ?=
WEB ?=
run: build
	@OPFOR_WEB=$(WEB) bash tools/run.sh $(BUILD) $(GAME)

test-unit: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPFOR_TEST_RULESETS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: deps
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DOPFOR_SANITIZE=ON -DOPFOR_TEST_RULESETS=ON >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)
	@cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

fuzz-build: deps
	@CC=clang cmake -S . -B $(FUZZBUILD) -DCMAKE_BUILD_TYPE=Debug -DOPFOR_FUZZ=ON \
	  -DOPFOR_SANITIZE=ON -DOPFOR_TESTS=OFF -DOPFOR_TEST_RULESETS=ON >/dev/null
	@cmake --build $(FUZZBUILD) -j $(JOBS)

# CI's short run: every target FUZZ_SECONDS from a copy of its committed corpus.
fuzz: fuzz-build
	@bash tests/fuzz/run.sh $(FUZZBUILD)/fuzz $(FUZZ_SECONDS)

# The deep run (tests/fuzz/long.sh; docs/building.md): hours at the defaults, a summary at the end,
# crash inputs in $(FUZZBUILD)/fuzz-long/artifacts/<target>/, non-zero exit on any crash.
fuzz-long: fuzz-build
	@FUZZ_LONG_RUNS=$(FUZZ_LONG_RUNS) FUZZ_LONG_SECONDS=$(FUZZ_LONG_SECONDS) \
	  FUZZ_LONG_JOBS=$(FUZZ_LONG_JOBS) FUZZ_LONG_TARGETS="$(FUZZ_LONG_TARGETS)" \
	  FUZZ_LONG_MERGE=$(FUZZ_LONG_MERGE) bash tests/fuzz/long.sh $(FUZZBUILD)/fuzz $(FUZZBUILD)/fuzz-long

format:
	@clang-format -i $(CFILES)

format-check: deps
	@clang-format --dry-run -Werror $(CFILES) && echo "format: clean"

# core/, ai/, io/, display/ and tools/ name no ruleset (tests/arch/check_ruleset_names.sh).
check-names:
	@bash tests/arch/check_ruleset_names.sh

test: format-check check-names test-unit test-asan fuzz test-arm64
	@echo "make test: all suites passed"

# The scripted table (tests/io/test_table_script.c) over hundreds of seeded Patrol Mode games:
# SOAK_GAMES games from each of two seeds, each order carried out as its fields say and checked
# against the rules engine and opfor's state; prints the figures, fails on any mismatch. Then
# the daemon soak (tests/cli/opford_soak.sh): a real opford plays SOAK_DAEMON_GAMES games with
# SOAK_DAEMON_DECISIONS novice AI decisions, each game closed; fails when its RSS grew more
# than SOAK_DAEMON_BOUND MiB after the fifth game. Exits 1 when either failed.
SOAK_GAMES ?= 100
SOAK_LEVEL ?= novice
SOAK_DAEMON_GAMES ?= 200
SOAK_DAEMON_DECISIONS ?= 10000
SOAK_DAEMON_BOUND ?= 16
soak: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPFOR_TEST_RULESETS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target test_table_script opford
	@rc=0; for seed in 1 1000001; do \
	  echo "soak: $(SOAK_GAMES) games from seed $$seed, level $(SOAK_LEVEL)"; \
	  $(BUILD)/tests/test_table_script --games $(SOAK_GAMES) --seed $$seed \
	    --level $(SOAK_LEVEL) || rc=1; \
	done; \
	echo "soak: opford, $(SOAK_DAEMON_GAMES) games, $(SOAK_DAEMON_DECISIONS) AI decisions"; \
	OPFORD_SOAK_TIMEOUT=3600 bash tests/cli/opford_soak.sh $(BUILD)/bin . \
	  $(SOAK_DAEMON_GAMES) $(SOAK_DAEMON_DECISIONS) $(SOAK_DAEMON_BOUND) || rc=1; \
	exit $$rc

# Cross build for the Raspberry Pi (aarch64) and the whole suite under qemu-user; installs the
# cross compiler, qemu and the :arm64 libraries first (tools/deps.sh --arm64). docs/building.md.
ARM64BUILD ?= build-arm64
.PHONY: test-arm64 valgrind
test-arm64:
	@JOBS=$(JOBS) bash tests/arm64.sh $(ARM64BUILD)

# Every unit test program of the normal build under valgrind memcheck (tests/valgrind.sh).
valgrind: build
	@JOBS=$(JOBS) bash tests/valgrind.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZBUILD) $(ARM64BUILD)
