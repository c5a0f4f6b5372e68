"""Books and guidelines as text: Markdown, plain text, PDF, and the tax_demo registry.

Literature becomes a ``Document {kind, title, date, source}`` node and its chunks. The date matters most: the
statutes a document cites are resolved to the version in force on that date, so a date that is wrong is worse than
none. It is therefore taken only from places that state it: front matter, a registry, or a line near the top that
is a date and little else (「令和５年６月１日」, 「（令和５年４月１日現在）」), never from a date inside a sentence.
What cannot be found is None and said in ``problems``; the caller can supply it (``--title``, ``--date``).

PDFs are read with ``pdftotext -layout`` from poppler-utils, a subprocess rather than a Python dependency: it is
the extractor that keeps Japanese text in reading order, and it is one ``apt-get install`` away.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexgraph.dates import parse_day
from lexgraph.documents.chunking import Span
from lexgraph.documents.datafiles import open_regular
from lexgraph.documents.encoding import check_clean, decode_text
from lexgraph.documents.jsonl import BadLine, line_where, read_records
from lexgraph.errors import ConfigurationError, DateFormatError, InputError, ToolMissing

KINDS = ("book", "guideline", "other")
_TOP_LINES = 10  # a date further down is a date the text talks about
_DATE_LINE_MAX = 40  # a line longer than this is prose, not a date line
_NUM = r"[0-9０-９〇一二三四五六七八九十]+"
_ERA_DATE_RE = re.compile(rf"(?:明治|大正|昭和|平成|令和)(?:{_NUM}|元)年{_NUM}月{_NUM}日")
_WESTERN_DATE_RE = re.compile(
    r"([0-9０-９]{4})\s*(?:年|[-/.])\s*([0-9０-９]{1,2})\s*(?:月|[-/.])\s*([0-9０-９]{1,2})日?"
)
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_HEADING_LINE_RE = re.compile(r"(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$")
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.S)


@dataclass(frozen=True)
class LiteratureText:
    """One book, guideline or other document as text, with what is known about it.

    ``date`` is ISO; ``kind`` is book, guideline or other; ``source`` is where it came from (a URL when one is
    known, else the file path). ``sections`` are the Markdown sections (named by their heading), for chunking;
    empty for plain text and PDF. ``problems`` names what could not be found or did not check out.
    """

    title: str | None
    date: str | None
    kind: str
    source: str
    text: str
    problems: tuple[str, ...] = ()
    licence: str | None = None
    doc_id: str | None = None
    sections: tuple[Span, ...] = ()


# ----------------------------------------------------------------------------------------------------
# Small readers


def parse_date(value: str) -> str | None:
    """「令和5年6月1日」, 「2023年6月1日」, 「2023-06-01」 → ISO, or None when the text is not one full date."""
    try:
        return parse_day(value).isoformat()
    except DateFormatError:
        return None


def _date_near_top(lines: list[str]) -> str | None:
    """A date on a line of its own (or with a few words: 「（令和５年４月１日現在）」) among the first lines."""
    for line in [re.sub(r"\s+", " ", line).strip() for line in lines if line.strip()][:_TOP_LINES]:
        if len(line) > _DATE_LINE_MAX or "。" in line:
            continue
        for m in (*_ERA_DATE_RE.finditer(line), *_WESTERN_DATE_RE.finditer(line)):
            found = parse_date(m.group())
            if found:
                return found
    return None


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    """``key: value`` lines between ``---`` lines at the very top (a YAML subset: no nesting, no lists)."""
    m = _FRONT_MATTER_RE.match(text)
    if m is None:
        return {}, text
    fields: dict[str, str] = {}
    for line in m.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t", "#")):
            fields[key.strip().lower()] = value.strip().strip("\"'")
    return fields, text[m.end():]


def _markdown_sections(text: str) -> tuple[Span, ...]:
    """One section per heading, running to the next heading; text before the first heading is unnamed."""
    heads = [(m.start(), _clean_heading(m.group(1))) for m in _HEADING_LINE_RE.finditer(text)]
    spans: list[Span] = []
    if not heads or heads[0][0] > 0:
        first = heads[0][0] if heads else len(text)
        if text[:first].strip():
            spans.append(Span(None, 0, first))
    for k, (start, name) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(text)
        spans.append(Span(name, start, end))
    return tuple(spans)


def _clean_heading(raw: str) -> str:
    return raw.strip().strip("*_`").strip()


def _title(lines: list[str], markdown: bool) -> str | None:
    """The first level-1 Markdown heading, or a heading before any text; else the first line.

    A lower heading after some text names a section (「### 還付請求できる過誤納金」), not the document.
    """
    if markdown:
        body_seen = False
        for line in lines:
            m = _HEADING_RE.match(line.strip())
            if m and (len(m.group(1)) == 1 or not body_seen):
                return _clean_heading(m.group(2)) or None
            if line.strip() and not m:
                body_seen = True
    for line in lines:
        if line.strip():
            return line.strip().lstrip("#").strip()[:200] or None
    return None


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ConfigurationError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    return kind


def _check_date(value: str, where: str) -> str:
    parsed = parse_date(value)
    if parsed is None:
        raise InputError(f"{where}: {value!r} is not a date (write 2023-06-01 or 令和5年6月1日)")
    return parsed


def _read_text_file(path: Path) -> tuple[str, list[str]]:
    """The text of a Markdown or text file in whichever of UTF-8, Shift_JIS or EUC-JP it certainly is (a note
    says when it was converted); `EncodingError` otherwise."""
    with open_regular(path, "Markdown or text file") as file:  # a FIFO is refused, not waited on
        decoded = decode_text(file.read(), str(path))
    return decoded.text, [decoded.note] if decoded.note else []


def pdf_to_text(path: str | Path, *, pdftotext: str = "pdftotext", timeout: float = 120) -> str:
    """The text of a PDF, laid out as on the page (``pdftotext -layout -enc UTF-8``); pages end with \\f.

    Raises ToolMissing when ``pdftotext`` is not installed, ValueError when it cannot read the file.
    """
    exe = shutil.which(pdftotext)
    if exe is None:
        raise ToolMissing(
            f"cannot read {path}: {pdftotext!r} is not on PATH. It comes with poppler-utils: "
            "apt-get install poppler-utils (Debian/Ubuntu), brew install poppler (macOS)"
        )
    try:
        done = subprocess.run(
            [exe, "-layout", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired:
        raise InputError(f"{path}: pdftotext took longer than {timeout:g} s; is the file a PDF?") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", errors="replace").strip() or f"exit status {done.returncode}"
        raise InputError(f"{path}: pdftotext could not read it: {message}")
    try:
        text = done.stdout.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: pdftotext gave bytes that are not UTF-8 (at byte {error.start})") from None
    check_clean(text, str(path))  # a glyph without a Unicode map comes out as U+FFFD
    return text


# ----------------------------------------------------------------------------------------------------
# Files


def read_literature(
    path: str | Path,
    *,
    title: str | None = None,
    date: str | None = None,
    kind: str | None = None,
    source: str | None = None,
    pdftotext: str = "pdftotext",
) -> LiteratureText:
    """Read a Markdown (.md, .markdown), plain text (.txt) or PDF (.pdf) file.

    Arguments override what the file says. Otherwise: Markdown front matter (title, date, kind, source or url,
    licence or license) first; then the title from the first heading or the first line, and the date from a
    date line near the top. ``kind`` defaults to book. Raises `InputError` for an unknown file type, an invalid
    ``kind`` or ``date`` argument, or an unreadable file; ToolMissing for a PDF without pdftotext.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    problems: list[str] = []
    fields: dict[str, str] = {}
    if suffix in (".md", ".markdown"):
        raw, problems = _read_text_file(path)
        fields, text = _front_matter(raw)
        sections = _markdown_sections(text)
    elif suffix == ".txt":
        text, problems = _read_text_file(path)
        sections = ()
    elif suffix == ".pdf":
        text = pdf_to_text(path, pdftotext=pdftotext)
        sections = ()
        if not text.strip():
            problems.append(f"{path.name}: pdftotext found no text (a scanned PDF needs OCR first)")
    else:
        raise InputError(f"{path}: cannot read {suffix or 'files without an extension'}; "
                         "expected .md, .markdown, .txt or .pdf")

    lines = text.splitlines()
    found_title = title or fields.get("title") or _title(lines, suffix in (".md", ".markdown"))
    if date is not None:
        found_date: str | None = _check_date(date, "--date")
    elif fields.get("date"):
        found_date = parse_date(fields["date"])
        if found_date is None:
            problems.append(f"front matter date {fields['date']!r} is not a date")
    else:
        found_date = _date_near_top(lines)
    found_kind = kind or fields.get("kind") or "book"
    if kind is None and found_kind not in KINDS:
        problems.append(f"front matter kind {found_kind!r} is not one of {', '.join(KINDS)}; using other")
        found_kind = "other"
    if found_title is None:
        problems.append("no title (no heading and no text); pass --title")
    if found_date is None:
        problems.append("no date found (front matter or a date line near the top); pass --date")
    return LiteratureText(
        title=found_title,
        date=found_date,
        kind=_check_kind(found_kind),
        source=source or fields.get("source") or fields.get("url") or str(path),
        text=text,
        problems=tuple(problems),
        licence=fields.get("licence") or fields.get("license"),
        sections=sections,
    )


# ----------------------------------------------------------------------------------------------------
# The tax_demo registry (juricode-mcp demo snapshot)

# What each registry layer is, as a Document kind: 通達 and the NTA's タックスアンサー are guidance from the
# administration; 裁決 (rulings of the National Tax Tribunal) are decisions but not court precedents, and statute
# articles belong in the graph as Provisions from e-Gov, so both are "other".
LAYER_KINDS = {"tsutatsu": "guideline", "taxanswer": "guideline", "ruling": "other", "statute": "other",
               "enforcement": "other"}


@dataclass(frozen=True)
class RegistryEntry:
    """One document of a registry (``registry/documents.jsonl``), with a title and kind derived from it.

    The registry has no titles: a statute article is titled from its law and article (「所得税法第28条」), a
    通達 from its name and number (「所得税法基本通達 36-1」), a タックスアンサー from its number; a ruling's title
    is the first line of its text, so it is None here and filled in by :func:`read_registry`.
    """

    doc_id: str
    layer: str
    title: str | None
    kind: str
    date: str | None
    source_url: str | None
    licence: str | None
    law_id: str | None
    law_num: str | None
    law_name: str | None
    article: str | None
    text_sha256: str | None


def _registry_dir(path: Path) -> Path:
    if path.is_file():
        return path.parent
    if (path / "registry").is_dir():
        return path / "registry"
    return path


def _jsonl(path: Path, on_bad_line: BadLine | None) -> list[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise InputError(f"{path}: missing; a registry holds documents.jsonl and texts.jsonl")
    return list(read_records(path, on_bad_line=on_bad_line))


def _field(data: dict[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        if required:
            raise InputError(f"{where}: field {key!r} is missing or empty")
        return None
    if not isinstance(value, str):
        raise InputError(f"{where}: field {key!r} must be a string, got {type(value).__name__}")
    return value


def _registry_title(doc_id: str, layer: str, law_name: str | None, article: str | None) -> str | None:
    if layer in ("statute", "enforcement") and law_name and article:
        return f"{law_name}第{article.replace('_', 'の')}条"
    if layer == "tsutatsu" and law_name:
        m = re.search(r"tsutatsu-([0-9][0-9a-z-]*)$", doc_id)
        return f"{law_name} {m.group(1)}" if m else law_name
    if layer == "taxanswer":
        m = re.search(r"(\d+)$", doc_id)
        return f"{law_name or 'タックスアンサー'} No.{m.group(1)}" if m else law_name
    return None


def load_registry(path: str | Path, *, on_bad_line: BadLine | None = None) -> list[RegistryEntry]:
    """The documents of a registry: ``path`` is the snapshot folder, its ``registry`` folder or documents.jsonl.

    Raises `InputError` naming the file, line and field for a malformed record, or, with `on_bad_line`, reports
    it there and keeps the other records.
    """
    folder = _registry_dir(Path(path))
    entries: list[RegistryEntry] = []
    for number, data in _jsonl(folder / "documents.jsonl", on_bad_line):
        try:
            entries.append(_registry_entry(data, line_where(folder / "documents.jsonl", number)))
        except ValueError as err:
            if on_bad_line is None:
                raise
            on_bad_line(str(err))
    return entries


def _registry_entry(data: dict[str, Any], where: str) -> RegistryEntry:
    doc_id = _field(data, "juri_id", where, required=True)
    layer = _field(data, "layer", where, required=True)
    assert doc_id is not None and layer is not None
    day = None
    for key in ("version_date", "decision_date"):
        raw = _field(data, key, where)
        if raw:
            day = parse_date(raw)
            if day is None:
                raise InputError(f"{where}: field {key!r} is not a date: {raw!r}")
            break
    law_name = _field(data, "law_name_ja", where)
    article = _field(data, "article_number", where)
    return RegistryEntry(
        doc_id=doc_id,
        layer=layer,
        title=_registry_title(doc_id, layer, law_name, article),
        kind=LAYER_KINDS.get(layer, "other"),
        date=day,
        source_url=_field(data, "source_url", where),
        licence=_field(data, "license", where),
        law_id=_field(data, "law_id", where),
        law_num=_field(data, "law_num", where),
        law_name=law_name,
        article=article,
        text_sha256=_field(data, "text_sha256", where),
    )


def read_registry(path: str | Path, *, on_bad_line: BadLine | None = None) -> list[LiteratureText]:
    """Every document of a registry with its text (``texts.jsonl``), checked against the registry's hash.

    A document without text, a text whose SHA-256 differs from ``text_sha256``, an unknown layer and a
    missing date are reported in the document's ``problems``. A malformed line of either file, or a text for no
    registered document, raises, or, with `on_bad_line`, is reported there while the other records are kept; a
    document whose text may be on such a line is then reported too, and left out rather than stored without it.
    """
    folder = _registry_dir(Path(path))
    bad_lines: list[str] = []
    report = None if on_bad_line is None else bad_lines.append
    entries = load_registry(folder, on_bad_line=report)
    texts: dict[str, str] = {}
    known = {e.doc_id for e in entries}
    texts_read = len(bad_lines)
    for number, data in _jsonl(folder / "texts.jsonl", report):
        where = line_where(folder / "texts.jsonl", number)
        try:
            doc_id = _field(data, "juri_id", where, required=True)
            text = data.get("text")
            if not isinstance(text, str):
                raise InputError(f"{where}: field 'text' must be a string")
            if doc_id not in known:
                raise InputError(f"{where}: text for {doc_id!r}, which documents.jsonl does not list")
        except ValueError as err:
            if report is None:
                raise
            report(str(err))
            continue
        assert doc_id is not None
        texts[doc_id] = text
    texts_damaged = len(bad_lines) > texts_read
    out: list[LiteratureText] = []
    for message in bad_lines:
        assert on_bad_line is not None
        on_bad_line(message)
    for entry in entries:
        problems: list[str] = []
        text = texts.get(entry.doc_id)
        if text is None and texts_damaged:
            assert on_bad_line is not None
            on_bad_line(f"{folder / 'texts.jsonl'}: no text for {entry.doc_id}, which may be on a line that could "
                        "not be read; not stored")
            continue
        if text is None:
            problems.append(f"no text in texts.jsonl for {entry.doc_id}")
            text = ""
        elif entry.text_sha256 and hashlib.sha256(text.encode("utf-8")).hexdigest() != entry.text_sha256:
            problems.append(f"text of {entry.doc_id} does not match its text_sha256")
        if entry.layer in ("statute", "enforcement"):
            problems.append(f"{entry.doc_id} is a statute article: its version_date is the law's, not this text's; "
                            "read statutes from e-Gov instead (lexgraph ingest statutes)")
        if entry.layer not in LAYER_KINDS:
            problems.append(f"unknown layer {entry.layer!r}; kind set to other")
        title = entry.title or _title(text.splitlines(), markdown=False)
        if title is None:
            problems.append("no title")
        if entry.date is None:
            problems.append("no date in the registry (version_date / decision_date); pass --date")
        out.append(LiteratureText(
            title=title, date=entry.date, kind=entry.kind, source=entry.source_url or str(folder),
            text=text, problems=tuple(problems), licence=entry.licence, doc_id=entry.doc_id,
            sections=_markdown_sections(text) if "\n#" in text else (),
        ))
    return out
