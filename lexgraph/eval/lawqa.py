"""lawqa_jp, the Digital Agency's 4-choice questions on Japanese law: loading the dataset, and the one reading of
its context's headings that every evaluation shares.

Each context says which clause it quotes by Markdown headings: ``## 借地借家法`` (law), ``### 第3条`` (article),
``#### 第1項`` (paragraph), ``##### 第2号`` (item), ``###### イ`` (subitem); a heading is 2 to 6 ``#`` and one
space. Retrieval's gold (`eval.retrieval`) and the citation gold (`eval.lawqa_gold`) both read them with `heading`.

出典：デジタル庁 日本の法令に関する多肢選択式QAデータセット (PDL 1.0).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexgraph.errors import DatasetError
from lexgraph.numerals import egov_num

HEADING = re.compile(r"^(#{2,6}) (.*)$")
_ARTICLE = re.compile(r"^第(.+?条(?:の[0-9０-９一二三四五六七八九十百千]+)*)$")
_PARAGRAPH = re.compile(r"^第(.+?)項$")
_ITEM = re.compile(r"^第(.+?)号$")


def heading(line: str) -> tuple[int, str] | None:
    """A context line's heading depth (2: law … 6: subitem) and its title without surrounding spaces, or None
    for a line of text."""
    match = HEADING.match(line)
    return (len(match.group(1)), match.group(2).strip()) if match else None


@dataclass(frozen=True)
class LawqaQuestion:
    qid: str  # the sample's ファイル名
    question: str  # 問題文
    choices: str  # 選択肢
    answer: str  # output
    context: str
    gold_laws: tuple[str, ...]  # law titles as the headings give them
    articles: tuple[tuple[str, str], ...]  # (law title, article path)
    paragraphs: tuple[tuple[str, str], ...]  # (law title, article/paragraph path)
    references: tuple[str, ...] = ()  # the sample's e-Gov law URLs (references)

    @property
    def query(self) -> str:
        """What is searched: the question with its choices (the choices carry most of the legal terms)."""
        return f"{self.question}\n{self.choices}"

    @property
    def cluster(self) -> str:
        """Each question stands alone (`eval.significance` resamples it by itself)."""
        return self.qid

    def quoted_texts(self) -> dict[tuple[str, str], str]:
        """The statute text the context quotes under each gold heading: ``(law title, a4)`` and ``(law title,
        a4/p1)`` → the text lines under it (its paragraphs and items, for an article), headings left out. What a
        stored wording is compared with to tell the same provision from a renumbered one (`eval.retrieval`)."""
        return quoted_texts(self.context)


def load_lawqa(path: str | Path) -> list[LawqaQuestion]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DatasetError(f"{path}: cannot read lawqa_jp JSON ({err})") from None
    samples = raw.get("samples") if isinstance(raw, dict) else raw
    if not isinstance(samples, list):
        raise DatasetError(f"{path}: expected {{\"samples\": [...]}} as in lawqa_jp's dev.json")
    questions = []
    for i, sample in enumerate(samples):
        if not isinstance(sample, dict) or "問題文" not in sample:
            raise DatasetError(f"{path}: sample {i} has no 問題文 field")
        questions.append(parse_sample(sample, i))
    return questions


def quoted_texts(context: str) -> dict[tuple[str, str], str]:
    """See `LawqaQuestion.quoted_texts`; the headings are read as `parse_sample` reads them."""
    texts: dict[tuple[str, str], list[str]] = {}
    law = article = paragraph = None
    for line in context.split("\n"):
        found_heading = heading(line)
        if found_heading is None:
            for key in ((law, article), (law, paragraph)):
                if key[0] and key[1]:
                    texts.setdefault((str(key[0]), str(key[1])), []).append(line.strip())
            continue
        level, text = found_heading
        if level == 2:
            law, article, paragraph = text, None, None
        elif level == 3:
            found = _ARTICLE.match(text)
            article = f"a{egov_num(found.group(1))}" if found and egov_num(found.group(1)) else None
            paragraph = None
        elif level == 4 and article:
            found_paragraph = _PARAGRAPH.match(text)
            number = egov_num(found_paragraph.group(1)) if found_paragraph else ("1" if _ITEM.match(text) else None)
            paragraph = f"{article}/p{number}" if number else None
    return {key: "".join(lines) for key, lines in texts.items() if "".join(lines)}


def parse_sample(sample: dict[str, Any], position: int = 0) -> LawqaQuestion:
    context = str(sample.get("コンテキスト", ""))
    laws: list[str] = []
    articles: list[tuple[str, str]] = []
    paragraphs: list[tuple[str, str]] = []
    law = article = None
    for line in context.split("\n"):
        found_heading = heading(line)
        if found_heading is None:
            continue
        level, text = found_heading
        if level == 2:
            law, article = text, None
        elif level == 3:
            found = _ARTICLE.match(text)
            article = f"a{egov_num(found.group(1))}" if found and egov_num(found.group(1)) else None
            if law and article:
                articles.append((law, article))
                if law not in laws:
                    laws.append(law)
        elif level == 4 and law and article:
            paragraph = _PARAGRAPH.match(text)
            item = _ITEM.match(text)
            number = egov_num(paragraph.group(1)) if paragraph else ("1" if item else None)
            if number:
                paragraphs.append((law, f"{article}/p{number}"))
    return LawqaQuestion(
        qid=str(sample.get("ファイル名") or position), question=str(sample["問題文"]),
        choices=str(sample.get("選択肢", "")), answer=str(sample.get("output", "")), context=context,
        gold_laws=tuple(laws), articles=tuple(dict.fromkeys(articles)), paragraphs=tuple(dict.fromkeys(paragraphs)),
        references=tuple(str(url) for url in sample.get("references") or () if isinstance(url, str)),
    )


def load_law_list(path: str | Path) -> dict[str, str]:
    """lawqa_jp's ``law_list.json`` (``[{"title", "url"}]``) as e-Gov URL → law title; {} when the file is absent
    (a dataset copied without it). Raises `DatasetError` for a file that is there but not such a list."""
    file = Path(path)
    if not file.exists():
        return {}
    try:
        rows = json.loads(file.read_text(encoding="utf-8"))
        return {str(row["url"]).rstrip("/"): str(row["title"]) for row in rows}
    except (OSError, ValueError, TypeError, KeyError) as err:
        raise DatasetError(f"{path}: not lawqa_jp's law_list.json, a list of {{\"title\", \"url\"}} ({err})") from None


#: The paper's question types (誤り選択 first: "誤っているもの" also contains "もの"), matched on 問題文.
QUESTION_TYPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("組み合わせ", ("組み合わせ", "組合せ")),
    ("誤り選択", ("誤っている", "誤り", "適切でない", "正しくない", "不適切")),
    ("正しい選択", ("正しい", "適切な", "適切である", "妥当な")),
)


def question_type(question: str) -> str:
    """The multi-agent paper's question type of a 問題文: 正しい選択, 誤り選択, 組み合わせ or その他."""
    return next((name for name, words in QUESTION_TYPES if any(w in question for w in words)), "その他")
