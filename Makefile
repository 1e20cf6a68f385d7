# cgscale - one plain Makefile. `make` builds ./cgscale, `make check` runs
# the unit tests (also under ASan+UBSan) and the integration tests, and
# `make install` honours PREFIX and DESTDIR. Libraries come from pkg-config.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
CC ?= gcc
VERSION := 0.1.0
GIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)

PKGS := hwloc json-c libcgroup libelf
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
BASE_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -Ibuild/gen $(shell pkg-config --cflags $(PKGS))
LIBS = $(shell pkg-config --libs $(PKGS)) -lpthread -lm -lpfm
TEST_LIBS = $(shell pkg-config --libs cmocka)

LIB_SRCS := $(filter-out runner/main.c,$(wildcard lib/*.c runner/*.c tests/*.c results/*.c cgroup-setup/*.c))
UNIT_SRCS := $(wildcard check/unit/test_*.c)
UNIT_REL := $(UNIT_SRCS:check/unit/%.c=build/rel/unit/%)
UNIT_SAN := $(UNIT_SRCS:check/unit/%.c=build/san/unit/%)

.SECONDARY:
.PHONY: all deps-build-check check check-run unit integration layers install clean bench fuzz FORCE

all: deps-build-check cgscale

# `make` only reports missing packages; ./run.sh and `make check` install.
deps-build-check:
	@scripts/deps.sh --check-only build

cgscale: build/rel/runner/main.o build/rel/libcgs.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

build/san/cgscale: build/san/runner/main.o build/san/libcgs.a
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LIBS)

build/gen/cgs_git.h: FORCE
	@mkdir -p $(@D)
	@echo '#define CGS_GIT "$(GIT)"' > $@.tmp
	@echo '#define CGS_VERSION "$(VERSION)"' >> $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

build/rel/%.o: %.c | build/gen/cgs_git.h
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

build/san/%.o: %.c | build/gen/cgs_git.h
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(SAN) -MMD -MP -c -o $@ $<

build/rel/libcgs.a: $(LIB_SRCS:%.c=build/rel/%.o)
	rm -f $@ && ar rcs $@ $^

build/san/libcgs.a: $(LIB_SRCS:%.c=build/san/%.o)
	rm -f $@ && ar rcs $@ $^

build/rel/unit/%: build/rel/check/unit/%.o build/rel/libcgs.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(TEST_LIBS) $(LIBS)

build/san/unit/%: build/san/check/unit/%.o build/san/libcgs.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(TEST_LIBS) $(LIBS)

# check: install what is missing, then build and test in a sub-make so
# that pkg-config sees the freshly installed libraries.
check:
	@scripts/deps.sh test
	@$(MAKE) --no-print-directory check-run

check-run: cgscale build/san/cgscale $(UNIT_REL) $(UNIT_SAN)
	@python3 check/layers.py --objs build/rel
	@check/run-unit.sh $(UNIT_REL) $(UNIT_SAN)
	@check/run-integration.sh ./cgscale build/san/cgscale

# the layers point one way (README, "Layout"); needs the objects for calls
layers: cgscale
	@python3 check/layers.py --objs build/rel

unit: $(UNIT_REL) $(UNIT_SAN)
	@check/run-unit.sh $^

integration: cgscale build/san/cgscale
	@check/run-integration.sh ./cgscale build/san/cgscale

build/rel/bench/placement-scale: build/rel/bench/placement_scale.o build/rel/libcgs.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

build/rel/bench/results-gen: build/rel/bench/results_gen.o build/rel/libcgs.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

bench: cgscale build/rel/bench/placement-scale build/rel/bench/results-gen
	@build/rel/bench/placement-scale
	@bench/harness-overhead ./cgscale
	@bench/perf-overhead ./cgscale
	@bench/profile-overhead ./cgscale
	@bench/evidence-overhead ./cgscale
	@bench/sendfile-vs-netperf ./cgscale
	@bench/remap-vs-stress-ng ./cgscale
	@bench/sampler-scale ./cgscale
	@bench/vs-will-it-scale ./cgscale
	@bench/results-scale ./cgscale build/rel/bench/results-gen
	@bench/verdict-calibration ./cgscale

# Fuzzing the result reader and compare (check/fuzz): `make fuzz` builds
# the libFuzzer harness with clang; build/san/fuzz-replay replays the
# corpus with gcc and the sanitizers where clang is missing.
FUZZ_CC ?= clang
FUZZ_SRCS := check/fuzz/fuzz_res_read.c $(wildcard results/*.c lib/*.c)
build/fuzz/fuzz_res_read: $(FUZZ_SRCS) results/res.h results/compare.h results/stats.h | build/gen/cgs_git.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 -D_GNU_SOURCE -Ibuild/gen $(shell pkg-config --cflags json-c) -g -O1 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $(FUZZ_SRCS) $(shell pkg-config --libs json-c libelf) -lm

build/san/fuzz-replay: build/san/check/fuzz/replay.o build/san/check/fuzz/fuzz_res_read.o build/san/libcgs.a
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LIBS)

fuzz: build/fuzz/fuzz_res_read

install: cgscale
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 cgscale $(DESTDIR)$(BINDIR)/cgscale

clean:
	rm -rf build cgscale

-include $(shell find build -name '*.d' 2>/dev/null)
