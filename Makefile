# Two commands do all the set-up on a fresh clone (Python 3.11+ and make are all it needs):
#   make run    the main job
#   make test   every check of the course
# Both create .venv and install the pinned dependencies the first time.

PYTHON ?= python3
# Python keeps each module it compiles in __pycache__/ (git-ignored). An environment that turns
# that off (PYTHONDONTWRITEBYTECODE, as some containers do) makes every command compile the course
# again: a quarter of the test suite's time here, and most of a short command's.
unexport PYTHONDONTWRITEBYTECODE
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast bench mutate killmatrix lab docs verify lint status clean

# pip comes first, from requirements-pip.lock (hash-checked; that file says why). Every
# dependency, the dev extra's included and the build backend (setuptools), comes from
# requirements.lock, each file checked against the hashes there (--require-hashes). The lock is
# compiled from pyproject.toml by the command in its header; compile it again after any change
# to a pin. The course itself is installed after, with --no-deps (nothing unhashed comes with
# it) and --no-build-isolation (it is built by the setuptools just checked, not by one fetched
# for the build). An editable install has no file to hash: it is this folder.
# editable_mode=compat: the course is put on the path by one line in a .pth file, not by
# setuptools' import-hook finder, whose own import costs every Python process 10 to 30 ms here
# (`course check` starts three).
$(STAMP): pyproject.toml requirements-pip.lock requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-pip.lock
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . \
	  --config-settings editable_mode=compat
	@touch $(STAMP)

# The main job: the full reference run behind lesson 1, sealed, then its rendered report;
# then the transparency log of lesson 11 (build/tlog/, the same bytes every time), the run's
# inclusion proof in it, and the run checked against the log, its witness and a kept checkpoint.
run: $(STAMP)
	@mkdir -p build
	$(BIN)/python -m core.run.main --out build/report.json
	@$(BIN)/python -m printout build/report.json
	@cmp -s build/report.json data/course/report.json \
	  && echo "build/report.json is byte-identical to the committed data/course/report.json" \
	  || (echo "build/report.json differs from data/course/report.json: run 'make verify'"; exit 1)
	@rm -rf build/tlog && $(BIN)/python -m tlog.demo --files build/tlog
	@$(BIN)/python -m tlog prove build/tlog/heads.log build/report.json > build/tlog/inclusion.json
	@$(BIN)/python -m tlog verify build/tlog/heads.log build/report.json --witness \
	  --checkpoint build/tlog/kept.checkpoint | fold -s -w 80

# nbval re-runs every notebook in this environment and compares each output (strict, not lax).
NBVAL := -p nbval --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg

# The ci Hypothesis profile (registered in conftest.py): every property test at its full size,
# the same examples on every run, and a failure prints the blob that reproduces it.
# Two processes (this machine has two cores); conftest.py keeps each file, the pages and the
# site tests whole in one process.
WORKERS ?= 2
test: $(STAMP)
	$(BIN)/python -m pytest $(NBVAL) --hypothesis-profile=ci -n $(WORKERS) --dist loadgroup

# The edit loop, under a minute: tests/ in two processes with the fast Hypothesis profile (a
# tenth of the examples, the default), without the lesson pages' commands, the notebooks (nbval)
# the docs site's builds, the tests that drive a browser (marked `browser`) and the tests marked
# `whole` (pyproject.toml). `make test`
# runs all of them; run it before a push.
test-fast: $(STAMP)
	$(BIN)/python -m pytest tests -n $(WORKERS) --dist loadgroup -m "not whole and not browser" \
	  --ignore=tests/test_site.py --ignore=tests/test_site_browser.py

# Every benchmark in benchmarks/, one table of ratios measured side by side (not part of make test),
# then the whole kill matrix, then AgentDojo's 949 pairs with and without the door (lesson 12).
bench: $(STAMP)
	$(BIN)/python -m benchmarks.bench
	$(BIN)/python -m lab.killmatrix
	$(BIN)/python -m dojo --costs

# How strong each lesson's check is (mutation/run.py): cosmic-ray's operators and the course's own
# (mutation/operators.py) over the lines each worked answer marks as the student's, every mutant
# judged by `course check N` from a temporary folder; one table, and each survivor. A minute or two
# per lesson on two cores: `make mutate LESSONS="7 11"` measures those; MUTATE_JOBS=2 runs two at once.
mutate: $(STAMP)
	$(BIN)/python -m mutation $(LESSONS) --survivors

# The reference run killed with SIGKILL after every ledger write and every request the lab answers,
# then resumed, each judged by the lab's own record (make test runs the first point of each kind);
# then the same with a person in the loop: no review written down, signed decisions arriving after
# the kill (lab/killdecisions.py).
killmatrix: $(STAMP)
	$(BIN)/python -m lab.killmatrix
	$(BIN)/python -m lab.killmatrix --decisions

# JupyterLab refuses to start as root unless told; containers and CI often run as root.
LAB_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $(LAB_ROOT)

# NO_MKDOCS_2_WARNING: mkdocs-material's own switch for its end-of-life banner (not a build warning).
# The pages are written first (site_build/build.py: pictures, source pages, links, notebooks, nav)
# to build/site-src/ with build/mkdocs.yml; any builder reads those: `zensical build -f build/mkdocs.yml`.
docs: $(STAMP)
	$(BIN)/python -m site_build.build build-pages
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve -f build/mkdocs.yml --dev-addr 127.0.0.1:8000

verify: $(STAMP)
	$(BIN)/course verify

lint: $(STAMP)
	$(BIN)/course lint

status: $(STAMP)
	$(BIN)/course status

clean:
	rm -rf $(VENV) site build
