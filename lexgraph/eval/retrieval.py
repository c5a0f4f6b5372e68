"""Retrieval measured on lawqa_jp: does a search for the question find the clauses its context quotes?

The Digital Agency's questions come with the statute text they are about, as headings: ``## 借地借家法`` (law),
``### 第3条`` (article), ``#### 第1項`` (paragraph), ``##### 第2号`` (item). Those headings are the gold: the
(law, article) pairs at article level and the (law, article, paragraph) triples at paragraph level. The context
text itself is never searched: retrieval runs over the laws in the store.

Questions are sorted into three groups, and every question is reported in exactly one:
- **scored**: every gold law is in the store;
- **absent**: some gold law is not in the store (金融商品取引法 is missing from the 2020 corpus, for one: a copy
  is kept in bench/data/egov), so a miss would say nothing about retrieval; they are listed with the missing law,
  not silently dropped;
- **no gold**: the context quotes no statute (a guideline, a Q&A), so recall is undefined.

Ids are ``<law_id>|<article path>`` (``403AC0000000090|a3``) and ``…|a3/p1``: a paragraph hit counts for its
article at the rank of its first paragraph (`metrics.score_question`). An item quoted directly under an article
(``### 第2条`` then ``#### 第1号``) is in paragraph 1, as e-Gov paths have it.

Depth: a search returns paragraphs, several of one article, so the ranking is taken `DEFAULT_DEPTH` (100) clauses
deep and article Recall@k reads the first k *distinct* articles of it; a ranking cut at 20 paragraphs holds fewer
than 20 articles and would make R@20 read fewer than 20.

Reachable gold: a gold clause counts toward the ceiling only when a stored wording has its path *and* says what
the question quotes. lawqa_jp quotes the law as in force when it was written; a law renumbered after the stored
text (薬機法 第九条の三 became 第九条の四; 第十四条の二 of 2020 is another rule than the quoted one) keeps the path
but not the provision. Such gold is **version-mismatched**: the quoted text shares less than
`MATCH_THRESHOLD` of its character bigrams with every stored wording at that path. It is listed apart and never
counted as reachable; the ``reachable`` rows score each question against its reachable gold only.

Questions are any objects with ``qid``, ``query``, ``gold_laws``, ``articles`` and ``paragraphs`` (`GoldQuestion`):
lawqa_jp's (law titles, resolved against the catalogue) and the judgment benchmark's (`eval.benchmark`, law ids).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lexgraph.errors import ConfigurationError
from lexgraph.eval.metrics import DEFAULT_KS, RetrievalReport, evaluate_retrieval
from lexgraph.eval.report import pyplot, report_folder, save_figure, write_csv, write_json
from lexgraph.eval.significance import DEFAULT_RESAMPLES, RunComparison, compare_runs
from lexgraph.retrieve.options import SearchOptions
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.timeline import article_path

if TYPE_CHECKING:
    from lexgraph.store.base import GraphStore

_ARTICLE = re.compile(r"^第(.+?条(?:の[0-9０-９一二三四五六七八九十百千]+)*)$")
_PARAGRAPH = re.compile(r"^第(.+?)項$")
_ITEM = re.compile(r"^第(.+?)号$")
LEVELS = ("article", "paragraph")
DEFAULT_DEPTH = 100  # clauses searched per question: enough to hold 20 distinct articles
DEFAULT_REFERENCE = SearchOptions().mode  # what `compare_modes` tests against the others: the fusion (hybrid)
MATCH_THRESHOLD = 0.5  # share of the quoted text's bigrams a stored wording must hold to be the same provision


class GoldQuestion(Protocol):
    """What `evaluate_lawqa` reads of a question. ``gold_laws`` are law titles or law ids (`resolve_titles`)."""

    @property
    def qid(self) -> str: ...
    @property
    def query(self) -> str: ...
    @property
    def gold_laws(self) -> tuple[str, ...]: ...
    @property
    def articles(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def paragraphs(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def cluster(self) -> str: ...
    def quoted_texts(self) -> dict[tuple[str, str], str]: ...


def article_id(law_id: str, path: str) -> str:
    """``law|a3`` for any clause path under article 3 (``a3/p1/i2``); supplementary provisions keep their prefix."""
    return f"{law_id}|{article_path(path)}"


def paragraph_id(law_id: str, path: str) -> str | None:
    parts = path.split("/")
    start = 1 if parts[0].startswith("suppl") else 0
    if len(parts) < start + 2 or not parts[start + 1].startswith("p"):
        return None
    return f"{law_id}|{'/'.join(parts[:start + 2])}"


@dataclass(frozen=True)
class LawqaRun:
    """The scores of one mode, at both levels, and how the questions were sorted.

    ``not_in_store`` lists gold clauses (``law|a6_2``) that no stored version of their law contains: lawqa_jp
    quotes the law as in force when it was written, and an article added later (薬機法 第六条の二, 2021) is not in
    the 2020 e-Gov archive. ``ceiling`` is then the best recall any retriever could reach over this store."""

    mode: str
    levels: dict[str, RetrievalReport]
    scored: tuple[str, ...]
    absent: tuple[tuple[str, tuple[str, ...]], ...]  # (qid, missing laws)
    no_gold: tuple[str, ...]
    n_questions: int
    not_in_store: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # level → (qid, gold id)
    ceiling: dict[str, float | None] = field(default_factory=dict)  # level → mean share of reachable gold
    #: level → (qid, gold id, share of the quoted text's bigrams the best stored wording holds)
    mismatched: dict[str, tuple[tuple[str, str, float], ...]] = field(default_factory=dict)
    #: qid → the cluster it is resampled with (`eval.significance`): its judgment, or itself
    clusters: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "questions": self.n_questions, "scored": len(self.scored),
            "share_with_laws_in_store": round(len(self.scored) / max(1, self.n_questions - len(self.no_gold)), 4),
            "absent": [{"qid": q, "missing_laws": list(m)} for q, m in self.absent],
            "no_gold": list(self.no_gold),
            "not_in_store": {level: [{"qid": q, "gold": g} for q, g in items]
                             for level, items in self.not_in_store.items()},
            "version_mismatched": {level: [{"qid": q, "gold": g, "overlap": round(o, 3)} for q, g, o in items]
                                   for level, items in self.mismatched.items()},
            "ceiling": self.ceiling,
            "levels": {level: report.to_json() for level, report in self.levels.items()},
            # the queries resampled together (`eval.significance`), where a query is not its own cluster
            "clusters": {qid: cluster for qid, cluster in self.clusters.items() if cluster != qid},
        }


#: Ranked clause ids (``law_id``, ``path``) for a question, best first.
Ranker = Callable[[Any], Sequence[tuple[str, str]]]


def resolve_titles(questions: Sequence[GoldQuestion], catalog: Catalog, stored: set[str]) -> dict[str, str | None]:
    """Law title (or law id) → the law id in the store (None: not stored, or unknown)."""
    out: dict[str, str | None] = {}
    for title in {t for q in questions for t in q.gold_laws}:
        if title in stored or catalog.by_id(title) is not None:
            out[title] = title if title in stored else None
            continue
        entries = [e for e in catalog.lookup(title) if e.law_id in stored] or catalog.lookup(title)
        out[title] = entries[0].law_id if entries and entries[0].law_id in stored else None
    return out


def without_laws(questions: Sequence[GoldQuestion], catalog: Catalog,
                 names: Sequence[str]) -> tuple[list[GoldQuestion], list[GoldQuestion]]:
    """The questions none of whose gold is in a law of `names` (titles, 略称, numbers or ids), and those left out:
    a benchmark scored with and without one law's questions (lawqa_jp with and without 金融商品取引法's) in one
    command each. A name the catalogue does not know, or that names several laws, is a `ConfigurationError`."""
    wanted: set[str] = set()
    for name in names:
        entries = catalog.lookup(name)
        if len({e.law_id for e in entries}) != 1:
            raise ConfigurationError(f"--without-law {name!r}: " + (
                "no law of that name in the catalogue; give its title, 略称, number or e-Gov id" if not entries else
                f"names {len(entries)} laws ({', '.join(e.law_id for e in entries[:4])}); give its e-Gov id"))
        wanted.add(entries[0].law_id)

    def law_of(title: str) -> str | None:
        if catalog.by_id(title) is not None:
            return title
        entries = catalog.lookup(title)
        return entries[0].law_id if entries else None

    kept: list[GoldQuestion] = []
    left: list[GoldQuestion] = []
    for question in questions:
        (left if any(law_of(title) in wanted for title in question.gold_laws) else kept).append(question)
    return kept, left


#: The text of every stored wording of a clause path (an article: its own text and its paragraphs'), [] if none.
ClauseTexts = Callable[[str, str], list[str]]


def bigram_overlap(quoted: str, stored: str) -> float:
    """Share of the quoted text's character bigrams (spaces left out) that the stored text holds: 1.0 for the same
    wording or a quote of part of it, near 1 after a small amendment, far lower for another provision."""
    def grams(text: str) -> set[str]:
        text = "".join(text.split())
        return {text[i:i + 2] for i in range(len(text) - 1)}

    wanted = grams(quoted)
    return len(wanted & grams(stored)) / len(wanted) if wanted else 1.0


def stored_law_ids(questions: Sequence[GoldQuestion], catalog: Catalog,
                   store: GraphStore) -> dict[str, str | None]:
    """`resolve_titles` against the laws a store holds."""
    from lexgraph.store.rows import LAWS_ALL

    return resolve_titles(questions, catalog, {row.law_id for row in store.rows(LAWS_ALL)})


def evaluate_lawqa(questions: Sequence[GoldQuestion], rank: Ranker, law_ids: dict[str, str | None], *,
                   mode: str, ks: Sequence[int] = DEFAULT_KS, texts: ClauseTexts | None = None) -> LawqaRun:
    """Score `rank`'s rankings of the questions whose gold laws are all stored, at article and paragraph level.

    `texts` sorts the gold into reachable, in no stored version (no wording at its path) and version-mismatched
    (see the module's docstring); without it every gold counts as reachable. The ``article`` and ``paragraph``
    reports score all gold; ``article (reachable)`` and ``paragraph (reachable)`` score each question against its
    reachable gold only (a question with none is left out of them)."""
    scored: list[GoldQuestion] = []
    absent: list[tuple[str, tuple[str, ...]]] = []
    no_gold: list[str] = []
    for q in questions:
        if not q.articles:
            no_gold.append(q.qid)
            continue
        unknown = tuple(t for t in q.gold_laws if law_ids.get(t) is None)
        if unknown:
            absent.append((q.qid, unknown))
        else:
            scored.append(q)
    predictions = [list(rank(q)) for q in scored]
    levels: dict[str, RetrievalReport] = {}
    not_in_store: dict[str, tuple[tuple[str, str], ...]] = {}
    mismatched: dict[str, tuple[tuple[str, str, float], ...]] = {}
    ceiling: dict[str, float | None] = {}
    for level in LEVELS:
        gold: list[list[str]] = []
        reachable: list[list[str]] = []
        predicted: list[list[str]] = []
        missing: list[tuple[str, str]] = []
        renumbered: list[tuple[str, str, float]] = []
        shares: list[float] = []
        for q, ranked in zip(scored, predictions, strict=True):
            items = q.articles if level == "article" else q.paragraphs
            quoted = q.quoted_texts() if texts is not None else {}
            ids = [f"{law_ids[t]}|{p}" for t, p in items]
            ok_ids = []
            for (title, path), gold_id in zip(items, ids, strict=True):
                law = law_ids[title] or ""
                if texts is not None:
                    wordings = texts(law, path)
                    if not wordings:
                        missing.append((q.qid, gold_id))
                        continue
                    if (title, path) in quoted:
                        overlap = max(bigram_overlap(quoted[(title, path)], w) for w in wordings)
                        if overlap < MATCH_THRESHOLD:
                            renumbered.append((q.qid, gold_id, overlap))
                            continue
                ok_ids.append(gold_id)
            if items:
                shares.append(len(ok_ids) / len(items))
            gold.append(ids)
            reachable.append(ok_ids)
            if level == "article":
                predicted.append([article_id(law, path) for law, path in ranked])
            else:
                predicted.append([pid for law, path in ranked if (pid := paragraph_id(law, path))])
        if texts is not None:
            not_in_store[level] = tuple(missing)
            mismatched[level] = tuple(renumbered)
            ceiling[level] = sum(shares) / len(shares) if shares else None
        qids = [q.qid for q in scored]
        levels[level] = evaluate_retrieval(gold, predicted, ks=ks, qids=qids)
        if texts is not None:
            levels[f"{level} (reachable)"] = evaluate_retrieval(reachable, predicted, ks=ks, qids=qids)
    return LawqaRun(mode, levels, tuple(q.qid for q in scored), tuple(absent), tuple(no_gold), len(questions),
                    not_in_store, ceiling, mismatched, {q.qid: q.cluster for q in scored})


def compare_modes(runs: Sequence[LawqaRun], reference: str = DEFAULT_REFERENCE, *,
                  resamples: int = DEFAULT_RESAMPLES) -> list[RunComparison]:
    """`reference`'s run against each other run, level by level and metric by metric, question by question
    (`eval.significance`: paired randomization test and bootstrap interval, resampling each query's cluster
    together). Empty when `reference` did not run or ran alone."""
    clusters: dict[str, str] = {}
    for run in runs:
        clusters.update(run.clusters)
    return compare_runs({run.mode: run.levels for run in runs}, reference, clusters, resamples=resamples)


def store_clause_texts(store: GraphStore) -> ClauseTexts:
    """`ClauseTexts` over a store's ``index_law_provisions`` query, one query per law: an article path gives each
    stored wording of the article (its text, or its paragraphs' joined), a paragraph path each wording of it."""
    from lexgraph.store.rows import INDEX_LAW_PROVISIONS

    known: dict[str, dict[str, list[str]]] = {}

    def texts(law_id: str, path: str) -> list[str]:
        if law_id not in known:
            by_path: dict[str, list[str]] = {}
            for row in store.rows(INDEX_LAW_PROVISIONS, law_id=law_id):
                text = row.text or ""
                by_path.setdefault(row.path, []).append(text)
                parent = row.path.rsplit("/", 1)[0]
                if row.kind == "paragraph" and parent != row.path:
                    by_path.setdefault(f"{parent}#paragraphs", []).append(text)
            known[law_id] = by_path
        by_path = known[law_id]
        found = by_path.get(path, [])
        paragraphs = by_path.get(f"{path}#paragraphs")
        return found + (["".join(paragraphs)] if paragraphs else [])

    return texts


def write_retrieval_report(directory: str | Path, config: dict[str, Any], runs: Sequence[LawqaRun],
                           ks: Sequence[int], comparisons: Sequence[RunComparison] = ()) -> list[Path]:
    """metrics.json, comparisons.json (`compare_modes`), details.csv (per question, mode and level), config.json
    and recall.png (Recall@k curves)."""
    folder = report_folder(directory)
    write_json(folder / "config.json", config)
    write_json(folder / "metrics.json", [run.to_json() for run in runs])
    write_json(folder / "comparisons.json", [c.to_json() for c in comparisons])
    write_csv(folder / "details.csv",
              ["qid", "mode", "level", "gold", "found", "missed", *[f"recall@{k}" for k in ks], "reciprocal_rank"],
              ([q.qid, run.mode, level, " ".join(q.gold), " ".join(f"{g}@{r}" for g, r in q.found),
                " ".join(q.missed), *[f"{q.recall_at(k):.4f}" for k in ks], f"{q.reciprocal_rank:.4f}"]
               for run in runs for level, report in run.levels.items() for q in report.questions))
    plot_recall(folder / "recall.png", runs, max(ks))
    return [folder / name for name in ("config.json", "metrics.json", "comparisons.json", "details.csv",
                                       "recall.png")]


def plot_recall(path: Path, runs: Sequence[LawqaRun], max_k: int) -> None:
    figure, axes = pyplot().subplots(1, len(LEVELS), figsize=(9, 3.5), sharey=True)
    cutoffs = list(range(1, max_k + 1))
    for axis, level in zip(axes, LEVELS, strict=True):
        for run in runs:
            report = run.levels[level]
            if report.n_scored:
                axis.plot(cutoffs, [report.recall_at(k) for k in cutoffs], marker=".", label=run.mode)
        ceiling = runs[0].ceiling.get(level) if runs else None
        if ceiling:
            axis.axhline(ceiling, color="grey", linestyle="--", linewidth=1, label="reachable")
        axis.set_title(f"{level} level", fontsize=9)
        axis.set_xlabel("k")
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("Recall@k")
    if axes[-1].get_legend_handles_labels()[0]:  # nothing scored (no gold stored): no legend, and no warning
        axes[-1].legend(fontsize=8)
    save_figure(figure, path)


#: Called with (mode, questions done, questions in all): 0 when a mode starts, then after every question.
RetrievalProgress = Callable[[str, int, int], None]


def rank_question(lg: Any, retriever: Any, mode: str, depth: int, base: SearchOptions | None = None) -> Ranker:
    """The ranker `evaluate_lawqa` calls: the evidence clauses of `lg`'s search (a `LexGraph`) for the question and
    its choices, through `retriever`, `depth` deep. `base` gives the other search options (M, RRF k, fusion, and
    whether the direct clause search is fused in: without it, chunks are searched too, since the graph's evidence
    comes from them)."""
    options = replace(base or SearchOptions(), mode=mode, k=depth, n=depth)
    kind = "provision" if options.direct else None

    def rank(question: GoldQuestion) -> list[tuple[str, str]]:
        result = lg.search(question.query, kind=kind, options=options, retriever=retriever)
        return [(item.law_id, item.path) for item in result.evidence if item.label == "Provision"]

    return rank


def run_retrieval(lg: Any, questions: Sequence[GoldQuestion], modes: Sequence[str], ks: Sequence[int],
                  embedder: Any, *, progress: RetrievalProgress | None = None, search: SearchOptions | None = None,
                  llm: Any = None, depth: int | None = None, label: str | None = None) -> list[LawqaRun]:
    """One `LawqaRun` per mode: `lg` (a `LexGraph`) searches every question with that mode's retriever (all of
    them sharing `embedder`), `depth` clauses deep (at least the largest k), scored at article and paragraph level
    against the gold laws that are stored. Raises what the search raises (`IndexUnavailable`, `EmbedderMismatch`,
    `ModelUnavailable`)."""
    law_ids = stored_law_ids(questions, lg.catalog, lg.store)
    texts = store_clause_texts(lg.store)
    # The judgments the questions come from, and so every judgment of the split scored: never anchor text.
    held_apart = frozenset(doc for q in questions if (doc := getattr(q, "doc", "")))
    runs = []
    for mode in modes:
        base = search or SearchOptions()
        retriever = lg.retriever(embedder=embedder, llm=llm, options=replace(base, mode=mode), held_apart=held_apart)
        ranker = rank_question(lg, retriever, mode, max(DEFAULT_DEPTH if depth is None else depth, *ks), base)
        done = 0
        if progress is not None:
            progress(mode, 0, len(questions))

        def counted(question: GoldQuestion, ranker: Ranker = ranker, mode: str = mode) -> Sequence[tuple[str, str]]:
            nonlocal done
            found = ranker(question)
            done += 1
            if progress is not None:
                progress(mode, done, len(questions))
            return found

        runs.append(evaluate_lawqa(questions, counted, law_ids, mode=label or mode, ks=tuple(ks), texts=texts))
    return runs
