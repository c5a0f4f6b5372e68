"""Companions: a clause that a retrieved clause cites as part of its own rule, placed right after it.

Why: a clause that says 「第十四条第一項の規定にかかわらず」, 「第九条の規定を準用する」, 「前条の場合において」 or
「第十二条の許可を受けた者」 states half a rule; the other half is the cited clause, and a question about the rule
needs both (half the held-out lawqa_jp misses were clauses that the top hit cites this way). Fusing *every*
neighbour as one more RRF list was tried and hurt: most citations (…に規定する, …の規定により) only borrow a
definition or a procedure. So only the citing phrases that make the cited clause part of the rule (`BINDING`)
bring a companion, and only for the first `top` hits, each companion right after the clause that cites it and never
above a place it already holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

#: The words right after a citation that make the cited clause part of the citing clause's rule.
BINDING = re.compile(r"^(?:の規定)?(?:にかかわらず|を準用する|の場合)"
                     r"|^(?:の規定による|による|の)(?:許可|承認|認定|登録|指定)を受けた")
#: What may stand between two citations of one list (第十条及び第十一条の規定を準用する): they share the phrase.
_CONNECTOR = re.compile(r"^(?:、|，|及び|並びに|又は|若しくは)$")
DEFAULT_TOP = 5
#: A cited clause, as (uid, law_id, path).
Cited = tuple[str, str, str]
#: uid of a citing clause → (the words after each citation, the cited clause).
CitesWithPhrase = Callable[[Sequence[str]], dict[str, list[tuple[str, Cited]]]]


def binding(after: str) -> bool:
    """Whether the words after a citation make the cited clause part of the rule (see `BINDING`)."""
    return BINDING.match(after) is not None


def with_companions(ranked: Sequence[str], cites: dict[str, list[tuple[str, Cited]]], *,
                    top: int = DEFAULT_TOP) -> list[str]:
    """`ranked` uids with each of the first `top` followed by the clauses it cites with a binding phrase (in the
    order it cites them), unless already placed; the rest of the ranking keeps its order below."""
    out: list[str] = []
    placed: set[str] = set()
    for position, uid in enumerate(ranked):
        if uid in placed:
            continue
        out.append(uid)
        placed.add(uid)
        if position < top:
            for after, (cited, _, _) in cites.get(uid, ()):
                if cited not in placed and binding(after):
                    out.append(cited)
                    placed.add(cited)
    return out


def phrases_after(rows: Iterable[dict[str, object]], width: int = 16) -> dict[str, list[tuple[str, Cited]]]:
    """The ``clauses_cites_with_text`` rows as uid → [(the `width` characters after the citation, cited)], in the
    order the citations stand in the text. A citation followed only by a connector and another citation (第十条
    及び第十一条の規定を準用する) takes the words after the last citation of the list."""
    spans: dict[str, list[tuple[int, int, str, Cited]]] = {}
    for row in rows:
        start, end = int(str(row["char_start"] or 0)), int(str(row["char_end"] or 0))
        cited = (str(row["to_uid"]), str(row["law_id"]), str(row["path"]))
        spans.setdefault(str(row["from_uid"]), []).append((start, end, str(row["text"] or ""), cited))
    out: dict[str, list[tuple[str, Cited]]] = {}
    for uid, items in spans.items():
        items.sort(key=lambda item: (item[0], item[1]))
        phrases: list[str] = [""] * len(items)
        for i in range(len(items) - 1, -1, -1):
            start, end, text, _ = items[i]
            following = items[i + 1][0] if i + 1 < len(items) else None
            if following is not None and (following <= end or _CONNECTOR.match(text[end:following])):
                phrases[i] = phrases[i + 1]
            else:
                phrases[i] = text[end:end + width]
        out[uid] = [(phrase, item[3]) for phrase, item in zip(phrases, items, strict=True)]
    return out
