"""Inputs to `PreparedDocument`s: judgment texts and metadata records, books and guidelines.

The readers (`judgment`, `literature`) say what a file holds; this module decides what lexgraph stores of it: which
text is chunked (a judgment's 判決要旨 where the metadata gives one, else its 理由 and the justices' opinions, but not
the 主文, which cites nothing), the node's properties, its key and the date its citations are read as of.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from lexgraph.documents.chunking import Chunk, chunk_text
from lexgraph.documents.encoding import check_clean
from lexgraph.documents.judgment import JudgmentMetadata, ParsedJudgment, load_metadata, read_judgment
from lexgraph.documents.literature import LiteratureText, read_literature, read_registry
from lexgraph.errors import EncodingError, InputError

_TEXT_SUFFIXES = (".txt",)
#: A judgment text with fewer characters than this (spaces and line breaks not counted) is refused: a case number, a
#: date, a court and a 主文 take more. The shortest of the 755 Supreme Court judgments of the project's corpus, a
#: 決定 that is its 主文 alone (82775), has 138; an empty or one-byte file (a failed download) must not become a
#: precedent.
MIN_JUDGMENT_CHARS = 50
_REASONED_SECTIONS = ("理由", "補足意見", "意見", "反対意見")
_METADATA_SUFFIXES = (".jsonl",)
_LITERATURE_SUFFIXES = (".md", ".markdown", ".txt", ".pdf")


@dataclass(frozen=True)
class PreparedDocument:
    """A document read and chunked, ready to be linked and written. `label` is Precedent or Document; `text` is
    what was chunked (a judgment's full text, or its 判決要旨 where the metadata gives one)."""

    source: str
    label: str
    uid: str
    node: dict[str, Any]  # the node's properties (without content_hash, problems, cited_laws)
    text: str  # the text the chunks and citations are offsets into
    chunks: tuple[Chunk, ...]
    as_of: date | None
    citing_court: str | None = None
    referenced: str | None = None  # 参照法条, for REFERS_TO
    problems: tuple[str, ...] = ()

    @property
    def content_hash(self) -> str:
        digest = hashlib.sha256()
        chunking = repr([(c.start, c.end, c.section) for c in self.chunks])
        for part in (self.text, repr(sorted(self.node.items(), key=str)), self.referenced or "", chunking):
            digest.update(part.encode("utf-8"))
            digest.update(b"\0")
        return digest.hexdigest()


def precedent_uid(lawsuit_id: str | None, source: str) -> str:
    """Judgments are keyed by the courts' site's lawsuit id (the file name), which every copy of a judgment and its
    metadata share; a file named otherwise gets a key from its name."""
    return f"hanrei:{lawsuit_id}" if lawsuit_id else f"hanrei:{Path(source).stem}"


def prepare_judgment(parsed: ParsedJudgment | None, meta: JudgmentMetadata | None, *, size: int,
                     overlap: int) -> PreparedDocument:
    """One precedent from its text, its metadata record, or both (the record wins where both say something)."""
    if parsed is None and meta is None:
        raise ValueError("a precedent needs a text or a metadata record")
    problems = list(parsed.problems) if parsed else []
    source = (parsed.source if parsed else None) or (meta.source_url if meta else None) or "metadata"
    lawsuit_id = (meta.lawsuit_id if meta else None) or (parsed.lawsuit_id if parsed else None)
    day = (meta.date if meta else None) or (parsed.date if parsed else None)
    node: dict[str, Any] = {
        "court": (meta.full_court if meta else None) or (parsed.full_court if parsed else None),
        "bench": (meta.bench if meta else None) or (parsed.bench if parsed else None),
        "date": date.fromisoformat(day) if day else None,
        "decision_type": (meta.decision_type if meta else None) or (parsed.decision_type if parsed else None),
        "case_number": (meta.case_number if meta else None) or (parsed.case_number if parsed else None),
        "case_name": (meta.case_name if meta else None) or (parsed.case_name if parsed else None),
        "reporter": meta.reporter if meta else None,
        "holdings": meta.holding if meta else None,
        "summary": meta.summary if meta else None,
        "referenced": meta.referenced_laws_raw if meta else None,
        "source": source,
    }
    if meta is not None and meta.summary:
        text = meta.summary
        chunks = [replace(c, section="判決要旨") for c in chunk_text(text, size=size, overlap=overlap)]
    elif parsed is not None:
        text = parsed.text
        # The reasons, and the justices' opinions that argue with them: what later cases and books cite.
        reasons = [s for s in parsed.sections if s.name in _REASONED_SECTIONS]
        if not any(s.name == "理由" for s in reasons):
            problems.append("no 理由 section found: the whole text is chunked")
            reasons = []
        chunks = chunk_text(text, reasons or None, size=size, overlap=overlap)
    else:
        text, chunks = "", []
        problems.append("the metadata record has no 判決要旨 and no judgment text was given: no chunks")
    if day is None:
        problems.append("no decision date: citations are read as of today's law")
    return PreparedDocument(
        source=source, label="Precedent", uid=precedent_uid(lawsuit_id, source), node=node, text=text,
        chunks=tuple(chunks), as_of=node["date"], citing_court=node["court"],
        referenced=node["referenced"], problems=tuple(problems),
    )


def iter_judgments(paths: Sequence[str | Path], *, size: int, overlap: int
                   ) -> Iterator[PreparedDocument | InputError]:
    """Every precedent under the inputs: judgment texts (.txt files or folders of them) and metadata records
    (.jsonl), joined by lawsuit id. Metadata is read first, so a record and its text become one precedent."""
    texts: list[Path] = []
    records: dict[str, JudgmentMetadata] = {}
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            yield InputError(f"{path}: no such file or directory")
        elif path.is_dir():
            texts += sorted(p for p in path.rglob("*") if p.suffix in _TEXT_SUFFIXES and p.is_file())
            for meta_path in sorted(p for p in path.rglob("*") if p.suffix in _METADATA_SUFFIXES):
                yield from _load_records(meta_path, records)
        elif path.suffix in _METADATA_SUFFIXES:
            yield from _load_records(path, records)
        elif path.suffix in _TEXT_SUFFIXES:
            texts.append(path)
        else:
            yield InputError(f"{path}: not a judgment text (.txt) or metadata file (.jsonl)")
    used: set[str] = set()
    for path in texts:
        try:
            parsed = read_judgment(path)
        except OSError as err:
            yield InputError(f"{path}: cannot be read ({err.strerror})")
            continue
        except (EncodingError, InputError) as err:
            yield InputError(str(err))
            continue
        chars = len("".join(parsed.text.split()))
        if chars < MIN_JUDGMENT_CHARS:
            yield InputError(f"{path}: {chars} characters of text (spaces not counted), fewer than the "
                             f"{MIN_JUDGMENT_CHARS} a judgment has (a case number, a date, a court and a 主文); not "
                             "stored. Give the judgment's whole text, e.g. pdftotext of the court's PDF")
            continue
        meta = records.get(parsed.lawsuit_id or "")
        if meta is not None:
            used.add(meta.lawsuit_id)
        yield checked(prepare_judgment(parsed, meta, size=size, overlap=overlap))
    for lawsuit_id, meta in records.items():
        if lawsuit_id not in used:
            yield checked(prepare_judgment(None, meta, size=size, overlap=overlap))


def checked(doc: PreparedDocument) -> PreparedDocument | InputError:
    """The document, or why it must not be stored: text or properties holding a replacement character or a
    control character, whatever they came from (a file, a metadata record, a registry, pdftotext)."""
    try:
        check_clean(doc.text, doc.source)
        for key, value in doc.node.items():
            if isinstance(value, str):
                check_clean(value, f"{doc.source} ({key})")
    except EncodingError as err:
        return InputError(str(err))
    return doc


BAD_LINE_FIX = ("; correct this line and run the same command again (the file's other records were read; "
                "those already stored are skipped)")


def _load_records(path: Path, records: dict[str, JudgmentMetadata]) -> Iterator[InputError]:
    """The good records of a metadata file into `records`; each bad line becomes a failure of its own."""
    bad: list[str] = []
    try:
        for meta in load_metadata(path, on_bad_line=bad.append):
            records[meta.lawsuit_id] = meta
    except OSError as err:
        yield InputError(f"{path}: cannot be read ({err.strerror})")
    for message in bad:
        yield InputError(message + BAD_LINE_FIX)


def document_uid(lit: LiteratureText) -> str:
    """Books and guidelines are keyed by their registry id, else by their source (file path or URL)."""
    if lit.doc_id:
        return f"doc:{lit.doc_id}"
    return "doc:" + hashlib.sha1(lit.source.encode("utf-8")).hexdigest()[:16]


def prepare_literature(lit: LiteratureText, *, size: int, overlap: int) -> PreparedDocument:
    day = date.fromisoformat(lit.date) if lit.date else None
    problems = list(lit.problems)
    if day is None:
        problems.append("no date: citations are read as of today's law (pass --date)")
    node = {"kind": lit.kind, "title": lit.title or Path(lit.source).stem, "date": day, "source": lit.source,
            "licence": lit.licence}
    chunks = chunk_text(lit.text, lit.sections or None, size=size, overlap=overlap) if lit.text else []
    return PreparedDocument(source=lit.source, label="Document", uid=document_uid(lit), node=node, text=lit.text,
                            chunks=tuple(chunks), as_of=day, problems=tuple(problems))


def iter_literature(paths: Sequence[str | Path], *, kind: str | None, title: str | None, day: str | None,
                    source: str | None, size: int, overlap: int) -> Iterator[PreparedDocument | InputError]:
    """Books and guidelines: Markdown, text and PDF files, folders of them, and registries (a folder with
    registry/documents.jsonl, such as the tax_demo set), whose entries carry their own kind, date and source."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            yield InputError(f"{path}: no such file or directory")
            continue
        if path.is_dir() and (path / "registry" / "documents.jsonl").is_file():
            bad: list[str] = []
            try:
                entries = read_registry(path, on_bad_line=bad.append)
            except (OSError, ValueError) as err:
                yield InputError(f"{path}: {err}")
                continue
            for message in bad:
                yield InputError(message + BAD_LINE_FIX)
            for lit in entries:
                yield checked(prepare_literature(lit, size=size, overlap=overlap))
            continue
        files = sorted(p for p in path.rglob("*") if p.suffix in _LITERATURE_SUFFIXES) if path.is_dir() else [path]
        for file in files:
            try:
                lit = read_literature(file, title=title, date=day, kind=kind, source=source)
            except EncodingError as err:
                yield InputError(str(err))
                continue
            except (OSError, ValueError, RuntimeError) as err:
                yield InputError(f"{file}: {err}")
                continue
            yield checked(prepare_literature(lit, size=size, overlap=overlap))
