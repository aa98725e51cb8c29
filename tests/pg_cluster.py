"""A throwaway PostgreSQL cluster for the tests.

`start(base)` makes a new cluster with `initdb` (trust on the Unix socket only, UTF8, the C
locale so that text sorts by bytes as SQLite sorts it), starts `postgres` on a socket in a
short directory of its own under /tmp and on no TCP port, with fsync off, and returns once
the server answers. Root may not run the server: as root, initdb and postgres run as the
`postgres` system user that Debian's postgresql package creates. `Cluster.stop()` shuts it
down (fast) and removes its directories. Each pytest-xdist worker starts its own.

The server's log is written to `base/postgres.log` and kept there.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from psycopg import sql

# The oldest server the office database runs on (scripts/setup.sh checks the same).
MAJOR_MIN = 15
SERVER_ROOT = Path("/usr/lib/postgresql")
SERVER_USER = "postgres"
READY_WITHIN = 60.0  # seconds, for initdb's cluster to answer on its socket
STOP_WITHIN = 60.0
SETUP_HINT = "run `sh scripts/setup.sh --test` to install PostgreSQL and PostGIS for the tests"

_PORT_BASE = 55000
_started = itertools.count()


class ClusterError(RuntimeError):
    """The cluster could not be made, started or stopped; the message says why."""


def server_bindir() -> Path:
    """The directory of the server programs: `pg_config --bindir` when it holds them, else
    the newest /usr/lib/postgresql/N/bin."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                              check=False)
        if done.returncode == 0 and done.stdout.strip():
            candidates.append(Path(done.stdout.strip()))
    versions = sorted((int(p.parent.name), p) for p in SERVER_ROOT.glob("*/bin")
                      if p.parent.name.isdigit())
    candidates += [p for _, p in reversed(versions)]
    for bindir in candidates:
        if all((bindir / program).is_file() for program in ("initdb", "postgres")):
            return bindir
    raise ClusterError(f"No PostgreSQL server programs (initdb, postgres) were found; "
                       f"{SETUP_HINT}.")


def server_major(bindir: Path) -> int:
    out = subprocess.run([str(bindir / "postgres"), "--version"], capture_output=True,
                         text=True, check=True).stdout
    found = re.search(r"\(PostgreSQL\) (\d+)", out)
    if not found:
        raise ClusterError(f"{bindir / 'postgres'} did not say its version ({out.strip()!r}).")
    return int(found.group(1))


@dataclass
class Cluster:
    bindir: Path
    data_dir: Path
    socket_dir: Path
    port: int
    superuser: str
    log_path: Path
    process: subprocess.Popen[bytes] = field(repr=False)
    started_in: float = 0.0  # seconds from initdb to the first answer

    def url(self, dbname: str, user: str | None = None) -> str:
        """A libpq URL for a database of this cluster, through its socket."""
        return (f"postgresql://{quote(user or self.superuser, safe='')}@/"
                f"{quote(dbname, safe='')}?host={quote(str(self.socket_dir))}&port={self.port}")

    def connect(self, dbname: str = "postgres", user: str | None = None) -> psycopg.Connection:
        return psycopg.connect(self.url(dbname, user), autocommit=True)

    def create_database(self, name: str, *, postgis: bool = True) -> str:
        """A new, empty UTF8 database with byte-order collation, PostGIS in it; its URL."""
        with self.connect() as conn:
            conn.execute(sql.SQL(
                "CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8' "
                "LC_COLLATE 'C' LC_CTYPE 'C'").format(sql.Identifier(name)))
        if postgis:
            with self.connect(name) as conn:
                conn.execute("CREATE EXTENSION postgis")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        with self.connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text("utf-8", errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Fast shutdown (SIGINT: open sessions are ended), waited for; then the data and
        socket directories are removed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(STOP_WITHIN)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise ClusterError(f"The test PostgreSQL server did not stop within "
                                   f"{STOP_WITHIN:.0f} s; it was killed.\n"
                                   f"{self.log_tail()}") from None
        shutil.rmtree(self.data_dir, ignore_errors=True)
        shutil.rmtree(self.socket_dir, ignore_errors=True)


def _worker_number() -> int:
    """0 for gw0 (or no pytest-xdist), 1 for gw1, ..."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = worker.lstrip("gw")
    return int(digits) if digits.isdigit() else 0


def _server_account() -> pwd.struct_passwd | None:
    """The postgres system user when we are root (the server refuses to run as root), else
    None: the server runs as ourselves."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise ClusterError(f"Root may not run the PostgreSQL server and there is no "
                           f"'{SERVER_USER}' system user; {SETUP_HINT}.") from None


def _dies_with_parent() -> list[str]:
    """A prefix that has the server sent SIGINT (fast shutdown) when the test process that
    started it dies, so that a killed worker leaves no server running: util-linux's
    `setpriv --pdeathsig`, run after the switch to the server's user (which would clear
    it). Without setpriv, nothing."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "INT", "--"] if setpriv else []


def start(base: Path, settings: Mapping[str, str] | None = None) -> Cluster:
    """A new cluster, running and answering on its socket. `settings` are extra server
    settings (`-c NAME=VALUE`)."""
    bindir = server_bindir()
    major = server_major(bindir)
    if major < MAJOR_MIN:
        raise ClusterError(f"The PostgreSQL server in {bindir} is version {major}, and the "
                           f"office database needs {MAJOR_MIN} or newer; {SETUP_HINT}.")
    account = _server_account()
    # Popen switches to the account between fork and exec, as `setpriv` would.
    as_server: dict[str, Any] = ({} if account is None else
                                 {"user": account.pw_uid, "group": account.pw_gid,
                                  "extra_groups": []})
    superuser = pwd.getpwuid(os.geteuid() if account is None else account.pw_uid).pw_name
    number = next(_started)
    worker = _worker_number()
    port = _PORT_BASE + 100 * worker + number % 100
    data_dir = Path(tempfile.mkdtemp(prefix=f"inspector-pgdata-gw{worker}-", dir="/tmp"))
    socket_dir = Path(tempfile.mkdtemp(prefix="pgs-", dir="/tmp"))  # a short socket path
    if account is not None:
        for directory in (data_dir, socket_dir):
            os.chown(directory, account.pw_uid, account.pw_gid)
    base.mkdir(parents=True, exist_ok=True)
    log_path = base / "postgres.log"
    began = time.monotonic()

    initdb = subprocess.run(
        [str(bindir / "initdb"), "--pgdata", str(data_dir), "--username", superuser,
         "--auth", "trust", "--encoding", "UTF8", "--locale", "C", "--no-sync"],
        capture_output=True, text=True, check=False, cwd="/", **as_server)
    if initdb.returncode != 0:
        shutil.rmtree(data_dir, ignore_errors=True)
        shutil.rmtree(socket_dir, ignore_errors=True)
        raise ClusterError(f"initdb failed (status {initdb.returncode}):\n"
                           f"{(initdb.stdout + initdb.stderr).strip()}")
    # Only the socket, for anyone, without a password; no TCP at all (listen_addresses).
    (data_dir / "pg_hba.conf").write_text("local all all trust\n", "utf-8")

    options = {"listen_addresses": "", "unix_socket_directories": str(socket_dir),
               "port": str(port), "fsync": "off", "synchronous_commit": "off",
               "full_page_writes": "off", **(settings or {})}
    command = [*_dies_with_parent(), str(bindir / "postgres"), "-D", str(data_dir)]
    for name, value in options.items():
        command += ["-c", f"{name}={value}"]
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, cwd="/", **as_server)
    cluster = Cluster(bindir, data_dir, socket_dir, port, superuser, log_path, process)
    _wait_until_ready(cluster)
    cluster.started_in = time.monotonic() - began
    return cluster


def _wait_until_ready(cluster: Cluster) -> None:
    """Ask the server (pg_isready on its socket) until it accepts connections, the process
    ends, or READY_WITHIN runs out."""
    deadline = time.monotonic() + READY_WITHIN
    ask = [str(cluster.bindir / "pg_isready"), "--quiet", "--host", str(cluster.socket_dir),
           "--port", str(cluster.port), "--dbname", "postgres",
           "--username", cluster.superuser, "--timeout", "1"]
    while True:
        if cluster.process.poll() is not None:
            cluster.stop()
            raise ClusterError(f"The test PostgreSQL server exited with status "
                               f"{cluster.process.returncode} before it answered; its log "
                               f"({cluster.log_path}) ends:\n{cluster.log_tail()}")
        if subprocess.run(ask, check=False).returncode == 0:
            return
        if time.monotonic() > deadline:
            cluster.stop()
            raise ClusterError(f"The test PostgreSQL server did not answer within "
                               f"{READY_WITHIN:.0f} s; its log ends:\n{cluster.log_tail()}")
        time.sleep(0.02)  # between two questions, not a wait for readiness
