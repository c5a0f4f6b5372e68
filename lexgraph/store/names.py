"""The name a person reads for each node: the ``name`` property written with the node, on both backends.

Neo4j Browser captions a node by one property of its label (docker/lexgraph.grass), and a node's own fields do
not read as a lawyer cites it: a paragraph's ``title`` names it without its article (第二項; before migration V014
e-Gov's printed 「２」, or nothing for an article's first paragraph), a chunk has only its position, a judgment
its case name without court or date. So every writer adds ``name``, made here from what the node holds and, for
a clause or a law's version, its law's title:

- Law 「民法」; LawVersion 「民法（令和5年6月14日改正）」, the day the wording took effect (a snapshot:
  「借地借家法（令和2年11月18日時点）」);
- Provision 「民法 第七百十条第一項」 (`lexgraph.numerals.clause_label`, one numeral style);
- Precedent 「最二小判 令和4.6.17（原状回復等請求事件）」, as lawyers cite a decision; Document its title;
- Chunk 「91244 ¶3」: the judgment's lawsuit id (a document's title) and the chunk's place, counted from 1;
- Question its text, Answer 「回答（ok）」, Knowledge its title; long texts cut at `MAX_NAME` characters.

Why ``name``: Browser's schema view (``CALL db.schema.visualization()``) draws each label as a node whose only
caption property is ``name``, so a style sheet captioning by ``{name}`` keeps those captions too; and Browser
without lexgraph's style picks ``name`` first by default. ``caption`` was taken: it is e-Gov's 見出し of a clause.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from lexgraph.citations.dates import EraDate
from lexgraph.numerals import clause_label

MAX_NAME = 40
"""Characters of a question's text or a title shown as a name: Browser draws a caption inside a circle."""

CASE_NAME_CHARS = 24
"""A case name beside the citation is cut here: some run to 60 characters (…決定に対する再抗告事件)."""

_COURTS = (("最高裁判所大法廷", "最大"), ("最高裁判所第一小法廷", "最一小"), ("最高裁判所第二小法廷", "最二小"),
           ("最高裁判所第三小法廷", "最三小"), ("最高裁判所", "最"), ("知的財産高等裁判所特別部", "知財高大"))
_COURT_WORDS = (("高等裁判所", "高"), ("地方裁判所", "地"), ("家庭裁判所", "家"), ("簡易裁判所", "簡"),
                ("知的財産", "知財"), ("支部", "支"))
_DECISIONS = {"判決": "判", "決定": "決", "命令": "命"}


def court_abbreviation(court: str) -> str:
    """最高裁判所第二小法廷 → 最二小, 大審院 → 大, 名古屋高等裁判所金沢支部 → 名古屋高金沢支."""
    for name, short in _COURTS:
        if court == name:
            return short
    if court.startswith("大審院"):
        return "大"
    for word, short in _COURT_WORDS:
        court = court.replace(word, short)
    return court


def era_date(day: date) -> str:
    """2022-06-17 → 令和4.6.17 (元 for an era's first year)."""
    era = EraDate.from_date(day)
    if era is None:
        return day.isoformat()
    return f"{era.year_text}.{day.month}.{day.day}"


def era_day(day: date) -> str:
    """2023-06-14 → 令和5年6月14日, as a statute's dates are written."""
    era = EraDate.from_date(day)
    if era is None:
        return day.isoformat()
    return f"{era.year_text}年{day.month}月{day.day}日"


def precedent_caption(row: Mapping[str, Any]) -> str:
    """最二小判 令和4.6.17 — the way lawyers cite a decision; the case name or the uid where the date is missing."""
    court, day = row.get("court"), row.get("date")
    decision = _DECISIONS.get(row.get("decision_type") or "", (row.get("decision_type") or "")[:1])
    if court and day:
        return f"{court_abbreviation(court)}{decision} {era_date(day)}"
    if row.get("case_name"):
        return str(row["case_name"])
    ident = str(row["uid"]).removeprefix("hanrei:")
    return f"{court_abbreviation(court)}{decision} #{ident}" if court else str(row["uid"])


def _cut(text: str, limit: int = MAX_NAME) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def law_name(title: str | None, law_id: str) -> str:
    return title or law_id


def version_name(law_title: str, row: Mapping[str, Any]) -> str:
    """民法（令和5年6月14日改正）: a version by the day its wording took effect, or the day a snapshot saw it."""
    if row.get("enforced_from"):
        return f"{law_title}（{era_day(row['enforced_from'])}改正）"
    if row.get("known_in_force_on"):
        return f"{law_title}（{era_day(row['known_in_force_on'])}時点）"
    return f"{law_title}（施行日不明）"


def provision_name(law_title: str, path: str) -> str:
    """民法 第七百十条第一項."""
    return f"{law_title} {clause_label(path)}"


def precedent_name(row: Mapping[str, Any]) -> str:
    """最二小判 令和4.6.17（原状回復等請求事件）; a stub without a case name is its citation alone."""
    caption = precedent_caption(row)
    case_name = row.get("case_name")
    if case_name and caption != case_name:
        return f"{caption}（{_cut(case_name, CASE_NAME_CHARS)}）"
    return caption


def chunk_name(owner_uid: str, seq: int | None, owner_title: str | None = None) -> str:
    """91244 ¶3 (a judgment's lawsuit id), or a document's title and the chunk's place, counted from 1."""
    place = f"¶{int(seq) + 1}" if seq is not None else "¶?"
    if owner_uid.startswith("hanrei:"):
        return f"{owner_uid.removeprefix('hanrei:')} {place}"
    return f"{_cut(owner_title or owner_uid)} {place}"


def titled_name(title: str | None, uid: str) -> str:
    """A document's, a question's or a knowledge item's name: its title or text, cut; its uid when it has none."""
    return _cut(title) if title and str(title).strip() else uid


def answer_name(status: str | None) -> str:
    return f"回答（{status or '不明'}）"
