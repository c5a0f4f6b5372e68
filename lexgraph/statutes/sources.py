"""Where statute XML comes from, and how each file is dated.

Inputs are XML files, directories and ``.tar.xz`` / ``.tar.gz`` / ``.zip`` archives. Archives are read as a stream,
one member at a time, so that the 886 MB corpus never sits in memory.

A file's revision comes, in this order, from: an explicit ``--revision`` (single file only); the file name
``<law_id>_<YYYYMMDD>_<amending law id>``; a ``MANIFEST.json`` beside it listing ``file`` → ``revision_id``;
``--in-force-on DATE``; a manifest entry's ``known_in_force_on``; and, for a bulk archive named with its download
day (``lawhub-xml_2020-11-18_all.tar.xz``), that day. The last three only say the text was in force on that day, so
the version is stored as a snapshot.
"""

from __future__ import annotations

import json
import re
import tarfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path, PurePosixPath
from typing import IO

from lexgraph.config import positive_env
from lexgraph.errors import RevisionUnknown, SourceError
from lexgraph.model import RevisionId

REVISION_PATTERN = re.compile(r"(?<![0-9A-Za-z])([0-9]{3}[0-9A-Za-z]{12})_([0-9]{8})_([0-9A-Za-z]{15})(?![0-9A-Za-z])")
"""An e-Gov revision id in a file name or a list: law id, day, amending law id. Ids hold lower-case letters too
(321M30000f40001, 156 laws of e-Gov's 2020 list), so both cases are read."""
_ARCHIVE_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})")
_ARCHIVE_SUFFIXES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar", ".zip")


@dataclass(frozen=True)
class ArchiveLimits:
    """What one archive member may be, so that an archive bomb cannot fill the memory: members are read in blocks
    and refused past `max_member_bytes`, and a zip member whose compression ratio no statute has (all zeros, say)
    is refused before it is read. Measured on the lawhub archive (8,500 files of its 2020 dump): the largest file
    4.2 MB, the highest deflate ratio 56 (median 8.5). Raised by ``LEXGRAPH_ARCHIVE_MAX_MEMBER_MB`` and
    ``LEXGRAPH_ARCHIVE_MAX_RATIO`` (docs/security.md)."""

    max_member_bytes: int = 64 << 20
    max_ratio: float = 200.0
    ratio_from_bytes: int = 1 << 20  # smaller members are not checked for their ratio: they cannot hurt

    @staticmethod
    def from_env() -> ArchiveLimits:
        limits = ArchiveLimits()
        megabytes = positive_env("LEXGRAPH_ARCHIVE_MAX_MEMBER_MB")
        ratio = positive_env("LEXGRAPH_ARCHIVE_MAX_RATIO")
        return replace(limits, max_member_bytes=limits.max_member_bytes if megabytes is None else megabytes << 20,
                       max_ratio=limits.max_ratio if ratio is None else float(ratio))



_READ_BLOCK = 1 << 20


def _read_capped(handle: IO[bytes], name: str, limits: ArchiveLimits) -> bytes:
    """A member's bytes, read in blocks and refused as soon as they pass the size limit (a header may lie)."""
    blocks, total = [], 0
    while block := handle.read(_READ_BLOCK):
        total += len(block)
        if total > limits.max_member_bytes:
            raise SourceError(_too_large(name, total, limits))
        blocks.append(block)
    return b"".join(blocks)


def _too_large(name: str, size: int, limits: ArchiveLimits) -> str:
    return (f"{name}: refused: the member holds {'more than ' if size > limits.max_member_bytes else ''}"
            f"{size / (1 << 20):.1f} MB, above the {limits.max_member_bytes >> 20} MB an archive member may hold "
            f"(the largest statute is about 4 MB); raise LEXGRAPH_ARCHIVE_MAX_MEMBER_MB if it is one")


@dataclass(frozen=True)
class XmlDocument:
    """One XML file's bytes and where it came from; `dating` says how its revision can be known."""

    name: str  # as shown to users: a path, or ``archive.tar.xz!member/path.xml``
    data: bytes
    manifest_revision: str | None = None
    archive_day: date | None = None  # a day the text is known to be in force (archive name or manifest)


@dataclass(frozen=True)
class DatingFlags:
    """What the user told us on the command line about the files' revision."""

    revision: str | None = None
    in_force_on: date | None = None


def parse_revision_id(text: str) -> RevisionId | None:
    match = REVISION_PATTERN.search(text)
    if match is None:
        return None
    law_id, day, amended_by = match.groups()
    try:
        enforced = date(int(day[:4]), int(day[4:6]), int(day[6:]))
    except ValueError:
        return None
    return RevisionId(law_id=law_id, enforced_from=enforced, amended_by=amended_by)


def date_revision(doc: XmlDocument, flags: DatingFlags, law_id: str | None) -> RevisionId:
    """Decide the revision of one document, or explain exactly how the user can supply it."""
    if flags.revision:
        revision = parse_revision_id(flags.revision)
        if revision is None:
            raise RevisionUnknown(
                f"--revision {flags.revision!r} is not an e-Gov revision id "
                "(<law_id>_<YYYYMMDD>_<amending law id>, e.g. 129AC0000000089_20200401_501AC0000000034)"
            )
        return revision
    basename = PurePosixPath(doc.name.replace("!", "/")).name
    known_day = flags.in_force_on or doc.archive_day
    for candidate in (basename, doc.manifest_revision or ""):
        revision = parse_revision_id(candidate)
        if revision is not None:
            # A day the source was seen in force extends how far the newest version is known ("known up to").
            if known_day is not None and revision.enforced_from is not None and known_day > revision.enforced_from:
                return replace(revision, known_in_force_on=known_day)
            return revision
    if known_day is not None:
        if law_id is None:
            raise RevisionUnknown("its law number is not in the catalogue and is not a law number from which "
                                  "an id can be derived; pass --revision <law_id>_<YYYYMMDD>_<amending law id>")
        return RevisionId(law_id=law_id, enforced_from=None, amended_by=None, known_in_force_on=known_day)
    raise RevisionUnknown(
        "no revision id: the file name is not <law_id>_<YYYYMMDD>_<amending law id>.xml and no MANIFEST.json "
        "beside it gives one. Pass --revision ID, or --in-force-on DATE (a day the text was known to be in force)"
    )


#: Decides from a file's name (without ``.xml``) whether to read it: `select_laws` builds one.
NameFilter = Callable[[str], bool]


def select_laws(law_ids: Sequence[str], law_nums: Sequence[str]) -> NameFilter:
    """A `NameFilter` for some laws, by the two naming schemes of the e-Gov dumps: ``<law_id>_<date>_<amender>``
    (e-Gov's own downloads) and the law number (``平成三年法律第九十号.xml``, the lawhub archive). Selecting by name
    lets a 900 MB archive be read for a handful of laws without parsing every file."""
    ids = tuple(law_ids)
    nums = frozenset(law_nums)

    def wanted(stem: str) -> bool:
        return stem in nums or any(stem == law_id or stem.startswith(law_id + "_") for law_id in ids)

    return wanted


def iter_documents(paths: Sequence[str | Path], *, only: NameFilter | None = None
                   ) -> Iterator[XmlDocument | SourceError]:
    """Every XML document under the given inputs, in a stable order. Unreadable inputs are yielded as errors so
    that one bad path does not stop the others. With `only`, files whose name it rejects are skipped unread."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            yield SourceError(f"{path}: no such file or directory")
        elif path.is_dir():
            yield from _iter_directory(path, only)
        elif not path.is_file():  # a FIFO or a device would be waited on, or read without end
            yield SourceError(f"{path}: not a regular file (a FIFO, a device or a socket); give e-Gov XML files, "
                              "archives of them or their folder")
        elif path.name.lower().endswith(_ARCHIVE_SUFFIXES):
            yield from _iter_archive(path, only)
        elif only is None or only(_stem(path.name)):
            yield _read_file(path, _manifest_for(path.parent).get(path.name, _NO_ENTRY))


def _stem(name: str) -> str:
    base = PurePosixPath(name).name
    return base[:-4] if base.lower().endswith(".xml") else base


def _read_file(path: Path, entry: tuple[str | None, date | None]) -> XmlDocument | SourceError:
    try:
        return XmlDocument(name=str(path), data=path.read_bytes(), manifest_revision=entry[0], archive_day=entry[1])
    except OSError as err:
        return SourceError(f"{path}: cannot be read ({err.strerror})")


def _iter_directory(root: Path, only: NameFilter | None) -> Iterator[XmlDocument | SourceError]:
    manifests: dict[Path, dict[str, tuple[str | None, date | None]]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix.lower() == ".xml":
            if only is not None and not only(_stem(path.name)):
                continue
            if path.parent not in manifests:
                manifests[path.parent] = _manifest_for(path.parent)
            yield _read_file(path, manifests[path.parent].get(path.name, _NO_ENTRY))
        elif path.is_file() and path.name.lower().endswith(_ARCHIVE_SUFFIXES):
            yield from _iter_archive(path, only)


_NO_ENTRY: tuple[str | None, date | None] = (None, None)


def _manifest_for(directory: Path) -> dict[str, tuple[str | None, date | None]]:
    """``MANIFEST.json`` in the file's directory or its parent: a list of {file, revision_id, known_in_force_on}.
    An entry with neither (such as a snapshot whose revision is unknown) gives nothing, on purpose: a day seen in
    a mirror's commit log is not a statement that the text was in force then."""
    mapping: dict[str, tuple[str | None, date | None]] = {}
    for candidate in (directory / "MANIFEST.json", directory.parent / "MANIFEST.json"):
        if not candidate.is_file():
            continue
        try:
            entries = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("file"):
                continue
            revision = str(entry["revision_id"]) if entry.get("revision_id") else None
            day = _iso_day(entry.get("known_in_force_on"))
            if revision or day:
                mapping.setdefault(PurePosixPath(str(entry["file"])).name, (revision, day))
    return mapping


def _iso_day(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _archive_day(path: Path) -> date | None:
    match = _ARCHIVE_DAY.search(path.name)
    if match is None:
        return None
    try:
        return date.fromisoformat(match.group(1))
    except ValueError:
        return None


def _iter_archive(path: Path, only: NameFilter | None) -> Iterator[XmlDocument | SourceError]:
    day = _archive_day(path)
    limits = ArchiveLimits.from_env()
    if path.name.lower().endswith(".zip"):
        try:
            with zipfile.ZipFile(path) as archive:
                for info in sorted(archive.infolist(), key=lambda i: i.filename):
                    if (not info.is_dir() and info.filename.lower().endswith(".xml")
                            and (only is None or only(_stem(info.filename)))):
                        yield _zip_member(path, archive, info, day, limits)
        except (zipfile.BadZipFile, OSError) as err:
            yield SourceError(f"{path}: not a readable zip archive ({err})")
        return
    try:
        with tarfile.open(path, mode="r|*") as archive:  # streaming: one member in memory at a time
            for member in archive:
                if (member.isfile() and member.name.lower().endswith(".xml")
                        and (only is None or only(_stem(member.name)))):
                    name = f"{path}!{member.name}"
                    if member.size > limits.max_member_bytes:
                        yield SourceError(_too_large(name, member.size, limits))
                        continue
                    handle = archive.extractfile(member)
                    if handle is not None:
                        try:
                            yield XmlDocument(name, _read_capped(handle, name, limits), archive_day=day)
                        except SourceError as refused:
                            yield refused
    except (tarfile.TarError, OSError, EOFError) as err:
        yield SourceError(f"{path}: not a readable tar archive ({err})")


def _zip_member(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, day: date | None,
                limits: ArchiveLimits) -> XmlDocument | SourceError:
    """One zip member, refused by its header's size and ratio before it is read, and by its real size while it
    is read in blocks."""
    name = f"{path}!{info.filename}"
    if info.file_size > limits.max_member_bytes:
        return SourceError(_too_large(name, info.file_size, limits))
    if info.file_size >= limits.ratio_from_bytes and info.file_size > limits.max_ratio * max(info.compress_size, 1):
        return SourceError(
            f"{name}: refused: its compression ratio is {info.file_size / max(info.compress_size, 1):.0f}, above "
            f"the {limits.max_ratio:.0f} no statute has (they compress 5 to 60 times); an archive bomb? Raise "
            f"LEXGRAPH_ARCHIVE_MAX_RATIO if it is a statute")
    try:
        with archive.open(info) as handle:
            return XmlDocument(name, _read_capped(handle, name, limits), archive_day=day)
    except SourceError as refused:
        return refused
