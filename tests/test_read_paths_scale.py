"""Every read path on a 600-law slice of the 2020 archive (slow; it needs ../shared).

The slice is chosen deterministically: 民法, 借地借家法 and 失火ノ責任ニ関スル法律 (which cites 民法 第七百九条), 250
laws whose text names 民法 and 347 others, each group in the order of a hash of the member's name, so that it is
the same slice on every machine and a spread of eras and kinds rather than the first folder of the archive. It is
ingested through the real CLI into a real embedded store with a small buffer pool (the default's floor), and each
read path must answer from it with real content.
"""

from __future__ import annotations

import hashlib
import lzma
import tarfile
from pathlib import Path

ARCHIVE_NAME = "lawhub-xml_2020-11-18_all.tar.xz"
ANCHORS = ("明治二十九年法律第八十九号.xml", "平成三年法律第九十号.xml", "明治三十二年法律第四十号.xml")
CITING, OTHERS = 250, 347


def _order(name: str) -> str:
    return hashlib.sha1(name.encode("utf-8")).hexdigest()


def build_slice(archive: Path, folder: Path) -> Path:
    """The 600-law slice of `archive` as a ``.tar.xz`` named like the archive (its day dates the laws), in
    `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    anchors: dict[str, tuple[tarfile.TarInfo, bytes]] = {}
    citing: list[tuple[str, tarfile.TarInfo, bytes]] = []
    others: list[tuple[str, tarfile.TarInfo, bytes]] = []
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".xml"):
                continue
            data = tar.extractfile(member).read()  # type: ignore[union-attr]
            base = member.name.rsplit("/", 1)[-1]
            if base in ANCHORS:
                anchors[base] = (member, data)
            elif "民法".encode() in data:
                citing.append((_order(member.name), member, data))
            else:
                others.append((_order(member.name), member, data))
    assert sorted(anchors) == sorted(ANCHORS), "the archive lacks a law the slice is built around"
    chosen = [anchors[name] for name in ANCHORS]
    chosen += [(m, d) for _, m, d in sorted(citing, key=lambda c: c[0])[:CITING]]
    chosen += [(m, d) for _, m, d in sorted(others, key=lambda c: c[0])[:OTHERS]]
    out = folder / ARCHIVE_NAME.replace("_all", "_slice600")
    with lzma.open(out, "wb", preset=0) as raw, tarfile.open(fileobj=raw, mode="w") as slice_tar:
        for member, data in chosen:
            import io

            slice_tar.addfile(member, io.BytesIO(data))
    return out
