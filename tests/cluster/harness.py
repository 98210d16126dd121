"""Real components for tests and benchmarks of several servers over one database: N
``pachisi serve`` processes on loopback, all on one PostgreSQL database, and Debian's nginx
in front of them, configured from deploy/nginx.conf (docs/deploy.md).

    with scratch_database(server_url) as url, Cluster(url, instances=3) as cluster:
        httpx.get(f"{cluster.url}/api/meta")   # through nginx, round robin
        cluster.kill9(0)                        # instance 0 dies without a word
        cluster.restart(0)                      # and comes back on its port

Each instance is ``.venv/bin/python -m pachisi serve --host 127.0.0.1 --port P --database
URL`` in a process group of its own, with its own log file; it first starts on port 0 (so
that no two pick the same free port) and keeps the port it got when restarted. nginx runs
in the foreground with a temporary prefix (``-p``) of its own for its pid file, logs and
temporary files. tests/cluster/conftest.py makes a cluster a pytest fixture; bench/web.py
``--instances N`` runs its clients through one.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Final

import httpx
import sqlalchemy as sa

from pachisi.web.storage import url_for_engine

__all__ = [
    "DATABASE_VARIABLE",
    "DEPLOY_NGINX_CONF",
    "NGINX",
    "UPSTREAM_HEADER",
    "Cluster",
    "ClusterError",
    "harness_config",
    "nginx_command",
    "render_site",
    "scratch_database",
    "serve_flags",
]

REPO: Final = Path(__file__).resolve().parents[2]
DEPLOY_NGINX_CONF: Final = REPO / "deploy" / "nginx.conf"
"""The nginx configuration that deploy/compose.yaml runs and the harness runs too."""
NGINX: Final = Path("/usr/sbin/nginx")
"""Debian's nginx (scripts/setup dev installs it)."""
DATABASE_VARIABLE: Final = "PACHISI_TEST_DATABASE_URL"
"""The environment variable naming the PostgreSQL server for tests (.ci/run sets it)."""
UPSTREAM_HEADER: Final = "X-Pachisi-Upstream"
"""The response header in which the harness's nginx names the instance that answered."""

SERVING: Final = re.compile(r"serving on http://\S+:(\d+)/")
STOP_SECONDS: Final = 10.0
"""How long a process may take to end after SIGTERM before it gets SIGKILL."""

# Added at the top of the http block: paths in the temporary prefix instead of the
# compiled-in ones under /var (not writable without root, and not the harness's), and the
# answering instance in a header for the tests (deploy/nginx.conf leaves it out: an
# internet server has no reason to tell which instance answered).
HARNESS_HTTP: Final = f"""\
    # tests/cluster/harness.py: a temporary prefix of its own, and who answered.
    access_log logs/access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    add_header {UPSTREAM_HEADER} $upstream_addr always;
"""

_UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+\S+(.*);\s*$")
_LISTEN = re.compile(r"^(\s*)listen\s+[^;]*;\s*$")


class ClusterError(Exception):
    """A process of the cluster did not start; the message ends with the tail of its log."""


def render_site(text: str, upstreams: Sequence[str], listen: str) -> str:
    """An nginx configuration (deploy/nginx.conf's text) for other instances and another
    address: the ``server`` lines of its ``upstream pachisi`` block become one per address
    in ``upstreams`` (with the first line's parameters, such as ``fail_timeout``), and its
    ``listen`` lines become one ``listen LISTEN;``. Every other line stays as it is.

    >>> conf = '''upstream pachisi {
    ...     server a:8000 max_fails=1;
    ...     server b:8000 max_fails=1;
    ... }
    ... server {
    ...     listen 80;
    ... }'''
    >>> print(render_site(conf, ["127.0.0.1:5001"], "127.0.0.1:5000"), end="")
    upstream pachisi {
        server 127.0.0.1:5001 max_fails=1;
    }
    server {
        listen 127.0.0.1:5000;
    }
    """
    lines = text.splitlines()
    out: list[str] = []
    in_upstream = servers_done = listen_done = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("upstream pachisi"):
            in_upstream = True
        elif in_upstream and stripped == "}":
            in_upstream = False
        server = _UPSTREAM_SERVER.match(line) if in_upstream else None
        listening = None if in_upstream else _LISTEN.match(line)
        if server:
            if not servers_done:
                indent, parameters = server.groups()
                out.extend(f"{indent}server {address}{parameters};" for address in upstreams)
                servers_done = True
        elif listening:
            if not listen_done:
                out.append(f"{listening.group(1)}listen {listen};")
                listen_done = True
        else:
            out.append(line)
    if not servers_done or not listen_done:
        raise ValueError("the configuration has no upstream pachisi servers or no listen line")
    return "\n".join(out) + "\n"


def harness_config(text: str, upstreams: Sequence[str], listen: str) -> str:
    """The configuration the harness's nginx runs: :func:`render_site`, and
    :data:`HARNESS_HTTP` at the top of the http block."""
    rendered = render_site(text, upstreams, listen)
    head, brace, tail = rendered.partition("http {\n")
    if not brace:
        raise ValueError("the configuration has no http block")
    return head + brace + HARNESS_HTTP + tail


def _python() -> str:
    """The project's interpreter (.venv, as scripts/setup makes it), else this one."""
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


@cache
def serve_flags() -> frozenset[str]:
    """The flags that ``pachisi serve --help`` lists, so that the harness passes an optional
    one (such as ``--trusted-proxy``) only to a server that has it."""
    help_text = subprocess.run(
        [_python(), "-m", "pachisi", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    return frozenset(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", help_text))


def _default_args() -> list[str]:
    """Flags every instance gets: nginx on loopback is the proxy whose headers count."""
    return ["--trusted-proxy", "127.0.0.1"] if "--trusted-proxy" in serve_flags() else []


@contextlib.contextmanager
def scratch_database(url: str) -> Iterator[str]:
    """A new, empty database on the PostgreSQL server of ``url`` (its URL), dropped
    afterwards even while servers still hold connections to it."""
    parsed = sa.engine.make_url(url)
    name = f"pachisi_cluster_{secrets.token_hex(6)}"
    admin = sa.create_engine(url_for_engine(url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        try:
            yield parsed.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def stored_moves(database: str, game: str) -> list[tuple[int, str]]:
    """Every stored move of ``game`` as (version, move), in order: what the servers agreed."""
    engine = sa.create_engine(url_for_engine(database))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT version, move FROM moves WHERE game_id = :g ORDER BY version"),
                {"g": game},
            ).all()
    finally:
        engine.dispose()
    return [(row.version, row.move) for row in rows]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


def _answers(url: str) -> bool:
    """Whether ``url`` answers 200 now (a refused or failing connection is a no)."""
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def nginx_command(prefix: Path, config: Path) -> list[str]:
    """How the harness runs nginx over ``config`` with its own ``prefix`` (add ``-t`` to
    only check the configuration)."""
    # In the foreground (the harness is its supervisor), with the pid file in the
    # prefix. As root, the workers run as root too: they use the prefix, which belongs
    # to the harness's user, and they only ever talk to loopback. Not as root, nginx
    # cannot change user and the directive would only draw a warning.
    directives = "daemon off; pid logs/nginx.pid;"
    if os.geteuid() == 0:
        directives += " user root;"
    return [str(NGINX), "-p", f"{prefix}/", "-c", str(config), "-e", "stderr", "-g", directives]


@dataclass
class _Process:
    """One process of the cluster: an instance or nginx."""

    name: str
    log: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    log_offset: int = 0

    def spawn(self, command: Sequence[str], cwd: Path) -> None:
        self.log_offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            # A process group of its own, so that kill9 and stop reach whatever the
            # process started (the computer players' workers) and nothing else.
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def new_log(self) -> str:
        """What the process logged since it was last spawned."""
        with self.log.open("rb") as log:
            log.seek(self.log_offset)
            return log.read().decode(errors="replace")

    def send(self, number: int) -> None:
        """Send ``number`` to the process (SIGKILL: to its whole group), if not yet reaped."""
        if self.process is None or self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            if number == signal.SIGKILL:
                # The group's id is the leader's pid, which is not reused before the
                # leader is reaped: this reaches only processes this harness started.
                os.killpg(self.process.pid, number)
            else:
                self.process.send_signal(number)

    def wait_or_kill(self, deadline: float) -> None:
        """Wait for the process to end until ``deadline``, then SIGKILL its group."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.send(signal.SIGKILL)
            self.process.wait()

    def failure(self, what: str) -> ClusterError:
        return ClusterError(f"{self.name} {what}; {self.log}:\n{_tail(self.log)}")


@dataclass
class Cluster:
    """``instances`` ``pachisi serve`` processes over ``database`` with nginx in front.

    ``extra_args`` are passed to every instance after the harness's own flags (``--host``,
    ``--port``, ``--database``, and ``--trusted-proxy 127.0.0.1`` when the server has it).
    ``directory`` holds the logs and nginx's prefix; by default a temporary directory,
    removed by :meth:`stop` (pass one to keep the logs, as the pytest fixture does).
    """

    database: str
    instances: int = 3
    extra_args: Sequence[str] = ()
    directory: Path | None = None
    timeout: float = 60.0
    """Seconds a process may take to answer when it starts."""
    _own_directory: bool = field(default=False, init=False)
    _servers: list[_Process] = field(default_factory=list, init=False)
    _nginx: _Process | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.instances < 1:
            raise ValueError(f"a cluster needs at least one instance, not {self.instances}")

    # ------------------------------------------------------------------ what it offers

    @property
    def url(self) -> str:
        """nginx's address: what clients use."""
        if self._nginx is None:
            raise RuntimeError("the cluster is not started")
        return f"http://127.0.0.1:{self._nginx.port}"

    @property
    def instance_urls(self) -> list[str]:
        """Each instance's own address, bypassing nginx."""
        return [f"http://127.0.0.1:{server.port}" for server in self._servers]

    @property
    def pids(self) -> list[int | None]:
        """Each instance's process id; None for one that is not running."""
        return [s.process.pid if s.process and s.alive() else None for s in self._servers]

    @property
    def nginx_pid(self) -> int | None:
        """nginx's master process id; None when it is not running."""
        nginx = self._nginx
        return nginx.process.pid if nginx and nginx.process and nginx.alive() else None

    @property
    def logs(self) -> list[Path]:
        """Each instance's log file (its stdout and stderr, appended to on restarts)."""
        return [server.log for server in self._servers]

    @property
    def nginx_log(self) -> Path | None:
        """nginx's error log (its stderr)."""
        return self._nginx.log if self._nginx else None

    def instance_of(self, response: httpx.Response) -> int:
        """Which instance answered a request made through nginx."""
        return self.instance_of_header(response.headers)

    def instance_of_header(self, headers: Mapping[str, str]) -> int:
        """Which instance answered, from the response headers of nginx: the last address
        it tried (after instances it skipped, ``$upstream_addr`` lists them all)."""
        address = headers[UPSTREAM_HEADER].split(",")[-1].strip()
        ports = [server.port for server in self._servers]
        return ports.index(int(address.rsplit(":", 1)[1]))

    # ------------------------------------------------------------------ life cycle

    def start(self) -> Cluster:
        """Start every instance and nginx, and wait until each answers ``GET /api/meta``;
        on any failure stop whatever started and raise :class:`ClusterError`."""
        if self._servers:
            raise RuntimeError("the cluster is already started")
        if self.directory is None:
            self.directory = Path(tempfile.mkdtemp(prefix="pachisi-cluster-"))
            self._own_directory = True
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            self._servers = [
                _Process(f"instance {i}", self.directory / f"instance-{i}.log")
                for i in range(self.instances)
            ]
            # The first alone: it creates the schema of a new database, and two servers
            # migrating one database at once collide (a duplicate key of alembic_version).
            # The others then all at once: each takes a second or two to import.
            first, *others = self._servers
            first.spawn(self._serve_command(first), REPO)
            self._await_server(first, time.monotonic() + self.timeout)
            for server in others:
                server.spawn(self._serve_command(server), REPO)
            deadline = time.monotonic() + self.timeout
            for server in others:
                self._await_server(server, deadline)
            self._start_nginx(deadline)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop nginx and every instance (SIGTERM, then SIGKILL after 10 s), and remove the
        temporary directory if the harness made it. Safe to call more than once."""
        processes = [p for p in [self._nginx, *self._servers] if p is not None]
        try:
            for process in processes:
                process.send(signal.SIGTERM)
            deadline = time.monotonic() + STOP_SECONDS
            for process in processes:
                process.wait_or_kill(deadline)
        finally:
            for process in processes:
                # Only if a wait above was interrupted: nothing of ours may outlive stop().
                process.send(signal.SIGKILL)
                if process.process is not None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.process.wait(timeout=STOP_SECONDS)
            if self._own_directory and self.directory is not None:
                shutil.rmtree(self.directory, ignore_errors=True)
                self.directory = None
                self._own_directory = False

    def kill9(self, i: int) -> None:
        """Kill instance ``i`` (and what it started) with SIGKILL, as a crash would."""
        server = self._servers[i]
        server.send(signal.SIGKILL)
        if server.process is not None:
            server.process.wait()

    def restart(self, i: int) -> None:
        """Start instance ``i`` again on its port (stopping it first if it runs), and wait
        until it answers."""
        server = self._servers[i]
        if server.alive():
            server.send(signal.SIGTERM)
            server.wait_or_kill(time.monotonic() + STOP_SECONDS)
        server.spawn(self._serve_command(server), REPO)
        self._await_server(server, time.monotonic() + self.timeout)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------ the parts

    def _serve_command(self, server: _Process) -> list[str]:
        return [
            _python(),
            "-m",
            "pachisi",
            "serve",
            "--host",
            "127.0.0.1",
            # 0 the first time: the server binds any free port, and keeps it on restart.
            "--port",
            str(server.port),
            "--database",
            self.database,
            *_default_args(),
            *self.extra_args,
        ]

    def _await_server(self, server: _Process, deadline: float) -> None:
        """Wait until the instance has said its port and answers there."""
        while True:
            if not server.port and (found := SERVING.search(server.new_log())):
                server.port = int(found.group(1))
            if server.port and _answers(f"http://127.0.0.1:{server.port}/api/meta"):
                return
            if not server.alive():
                raise server.failure("exited while starting")
            if time.monotonic() > deadline:
                raise server.failure(f"did not answer within {self.timeout:g} s")
            time.sleep(0.05)

    def _start_nginx(self, deadline: float) -> None:
        assert self.directory is not None
        prefix = self.directory / "nginx"
        for sub in ("logs", "temp"):
            (prefix / sub).mkdir(parents=True, exist_ok=True)
        nginx = _Process("nginx", prefix / "logs" / "error.log")
        self._nginx = nginx
        upstreams = [f"127.0.0.1:{server.port}" for server in self._servers]
        config = prefix / "nginx.conf"
        # nginx cannot be given port 0 and say which it got: pick a free port, and pick
        # again if another process took it before nginx bound it.
        for _ in range(5):
            nginx.port = _free_port()
            listen = f"127.0.0.1:{nginx.port}"
            config.write_text(harness_config(DEPLOY_NGINX_CONF.read_text(), upstreams, listen))
            command = nginx_command(prefix, config)
            checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
            if checked.returncode:
                raise ClusterError(f"nginx -t refuses {config}:\n{checked.stderr}")
            nginx.spawn(command, prefix)
            while nginx.alive() and not _answers(f"{self.url}/api/meta"):
                if time.monotonic() > deadline:
                    raise nginx.failure(f"did not answer within {self.timeout:g} s")
                time.sleep(0.05)
            if nginx.alive():
                return
            if "Address already in use" not in nginx.new_log():
                raise nginx.failure("exited while starting")
        raise nginx.failure("found no free port")
