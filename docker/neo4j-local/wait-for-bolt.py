"""Wait until a Bolt server answers the Bolt handshake on HOST:PORT and the server's LOG says it is ready (Bolt
listens a moment before the default database is online), or the server process dies, or time runs out.

Used by `make neo4j`, which must not need the project's virtualenv (the driver lives there): the handshake is
four magic bytes and four version proposals, and a Bolt server answers with the version it picked. A port that
merely accepts connections (another program on 7687) does not pass.

    python3 wait-for-bolt.py HOST PORT PID SECONDS LOG
Exit 0 when Bolt answers, 1 when the process PID has exited, 2 on timeout.
"""

from __future__ import annotations

import os
import socket
import sys
import time

READY = "neo4j-local: Neo4j "
_MAGIC = b"\x60\x60\xb0\x17"
# Bolt 5.0-5.8 (a range), 4.4, and two empty proposals: what Neo4j 5 servers speak.
_PROPOSALS = b"\x00\x08\x08\x05" + b"\x00\x00\x04\x04" + b"\x00" * 8


def bolt_answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2) as conn:
            conn.sendall(_MAGIC + _PROPOSALS)
            reply = conn.recv(4)
    except OSError:
        return False
    return len(reply) == 4 and reply != b"\x00\x00\x00\x00"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def ready(log: str) -> bool:
    """The line docker/neo4j-local's Main prints once every database is started."""
    try:
        with open(log, encoding="utf-8", errors="replace") as lines:
            return any(line.startswith(READY) for line in lines)
    except OSError:
        return False


def main(host: str, port: str, pid: str, seconds: str, log: str) -> int:
    deadline = time.monotonic() + float(seconds)
    while time.monotonic() < deadline:
        if ready(log) and bolt_answers(host, int(port)):
            return 0
        if not alive(int(pid)):
            return 1
        time.sleep(0.5)
    return 2


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
