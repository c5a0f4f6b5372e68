"""`lexgraph experiment …`: the seed papers' experiments, each one named configuration run by one command."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from lexgraph.cli.options import EmbedderOpt, JsonOpt, StoreOpt, make_embedder
from lexgraph.cli.output import (
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    emit_json,
    err,
    fail,
    fmt,
    opened,
    out,
)
from lexgraph.llm.client import NOT_CONFIGURED, configured_client

app = typer.Typer(no_args_is_help=True, help="The seed papers' experiments, with their published parameters.")


@app.command("list")
def list_command(as_json: JsonOpt = False) -> None:
    """The experiments: the paper, what it measured, the parameters as published, and whether a model is needed."""
    from lexgraph.eval.experiments import EXPERIMENTS

    experiments = EXPERIMENTS
    if as_json:
        emit_json([e.to_json() for e in experiments])
        return
    for e in experiments:
        parameters = e.to_json()["parameters"]
        out.print(f"[bold]{e.name}[/]  ({'needs a model' if e.parameters.model_needed() else 'no model needed'})")
        out.print(f"  paper: {e.paper}\n  measures: {e.measures}", highlight=False)
        out.print("  parameters: " + ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"
                                              for k, v in parameters.items()), highlight=False)
        for substitute in e.substitutes:
            out.print(f"  [yellow]substitute[/] {substitute.what}: {substitute.here}", highlight=False)


@app.command("run")
def run_command(
    name: Annotated[str, typer.Argument(help="An experiment of `lexgraph experiment list`.")],
    dataset: Annotated[Path | None, typer.Option("--dataset", help="lawqa_jp JSON (default: the experiment's, "
                                                 "../shared/data/lawqa_jp/dev.json).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions (after the paper's "
                                              "sample).")] = None,
    report: Annotated[Path | None, typer.Option("--report", help="Write config.json, metrics.json, details.csv, "
                                                "summary.png and each variant's report here.")] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", help="Override a parameter, KEY=VALUE (lists "
                                                       "comma-separated); repeatable.")] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run one experiment with the paper's parameters (and any --set), on the data at hand; the report records
    the values used and everything that differs from the paper. Without a model where one is needed: exit 3."""
    from lexgraph import DatasetError
    from lexgraph.eval.experiments import experiment_settings
    from lexgraph.eval.lawqa import load_lawqa

    experiment, params = experiment_settings(name, settings or [])
    if limit is not None and limit < 1:
        fail("--limit must be at least 1", EXIT_USAGE)
    source = dataset or Path(experiment.dataset)
    try:
        questions = load_lawqa(source)
    except DatasetError as error:
        raise DatasetError(f"{error}; give the lawqa_jp file with --dataset") from error
    llm = configured_client()
    if params.model_needed() and llm is None:
        fail(f"experiment {experiment.name} needs a model; {NOT_CONFIGURED}", EXIT_UNAVAILABLE)
    with tempfile.TemporaryDirectory(prefix="lexgraph-experiment-") as scratch:
        folder = report or Path(scratch)
        with opened(store, read_only=True) as lg:
            result = lg.run_experiment(experiment, params, dataset=source, questions=questions, report=folder,
                                       limit=limit, llm=llm, embedder=make_embedder(embedder, lg),
                                       progress=lambda step: err.print(f"{experiment.name}: {step}",
                                                                       highlight=False))
        payload = result.to_json()
        if report is None:
            payload["report"] = []
    if as_json:
        emit_json(payload)
        return
    keys = list(dict.fromkeys(k for v in result.variants for k in v.headline))
    table = Table("metric", *[v.name for v in result.variants])  # variants across: a metric reads along a row
    for key in keys:
        table.add_row(key, *[fmt(v.headline.get(key)) for v in result.variants])
    out.print(f"{experiment.name}: {experiment.paper}", highlight=False)
    out.print(table)
    out.print("differs from the paper:", highlight=False)
    for difference in result.config["differs_from_paper"]:
        out.print(f"  {difference['what']}: here {difference['here']}; paper {difference['paper']} "
                  f"(why: {difference['reason']})", highlight=False)
    for path in payload["report"]:
        out.print(f"wrote {path}", highlight=False)
