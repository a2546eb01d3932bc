"""The production shape as its scripts start it: nginx (deploy/nginx.conf, written by
scripts/nginx_conf.py) in front of the web processes and a task worker
(scripts/production.sh), a rolling deploy of a new release onto them (scripts/deploy.sh), and
their stop. Real processes on a fresh PostgreSQL database and Redis, reached through the
proxy only, as a browser would.

Skipped where nginx is missing and cannot be installed (the scripts install Debian's nginx
with apt-get, as root or by sudo), and, but for the configuration's check, without
PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.live import GENEROUS_LIMITS, fresh_database, production_ports, run_async
from tests.scale.faults import News, Page, next_move, play, table_in_play

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
FIRST, SECOND = "20200101T000000Z-first", "20200101T000100Z-second"


def _can_install_nginx() -> bool:
    if not shutil.which("apt-get"):
        return False
    if os.geteuid() == 0:
        return True
    return bool(shutil.which("sudo")) and subprocess.run(
        ["sudo", "-n", "true"], capture_output=True
    ).returncode == 0


NGINX_THERE = Path(NGINX).exists()
needs_nginx = pytest.mark.skipif(
    not NGINX_THERE and not _can_install_nginx(),
    reason="needs nginx, or apt-get as root or by sudo to install it",
)


def _install_nginx() -> None:
    if not Path(NGINX).exists():
        sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "nginx"], check=True, env=env,
                       capture_output=True)


def _run_dir() -> Path:
    """A run directory nginx's workers can reach too (started as root, they run as nobody)."""
    path = Path(tempfile.mkdtemp(prefix="ocholoco-run-"))
    path.chmod(0o755)
    return path


@needs_nginx
def test_the_generated_configuration_passes_nginx_t():
    _install_nginx()
    run_dir = _run_dir()
    try:
        conf = run_dir / "nginx.conf"
        subprocess.run(
            ["python3", "scripts/nginx_conf.py", "--web-ports", "8001,8002,8003",
             "--proxy-port", "8000", "--run-dir", str(run_dir), "--static-root",
             str(ROOT / "staticfiles"), "--out", str(conf)],
            cwd=ROOT, check=True,
        )
        text = conf.read_text()
        assert "@" not in re.sub(r"#.*", "", text)
        servers = re.findall(r"server 127\.0\.0\.1:(\d+) max_fails=0;", text)
        assert servers == ["8001", "8002", "8003"]
        (run_dir / "nginx-temp").mkdir()
        check = subprocess.run(
            [NGINX, "-t", "-p", str(run_dir), "-e", str(run_dir / "nginx-error.log"),
             "-c", str(conf)],
            capture_output=True, text=True,
        )
        assert check.returncode == 0, check.stderr
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


# --- The whole shape ------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and ") Z" in stat.read_text())


def _pids(run_dir: Path) -> dict[str, int]:
    return {p.stem: int(p.read_text()) for p in run_dir.glob("*.pid") if p.read_text().strip()}


def _script(name: str, env: dict[str, str], *args: str, timeout: float = 120) -> str:
    done = subprocess.run(
        ["bash", f"scripts/{name}", *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{name} {args}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture
def production() -> Iterator[tuple[str, dict[str, str], Path]]:
    """production.sh DETACH=1 with 2 web processes and a worker: (the proxy's URL, the
    scripts' environment, the run directory); stopped after (production.sh stop)."""
    _install_nginx()
    port, proxy_port = production_ports(2, 1)
    run_dir = _run_dir()
    prefix = f"t{uuid.uuid4().hex[:8]}"
    with fresh_database() as db_env:
        env = {
            **GENEROUS_LIMITS, **os.environ, **db_env, "RUN_DIR": str(run_dir), "WEB": "2",
            "WORKERS": "1", "PORT": str(port), "PROXY_PORT": str(proxy_port),
            "CHANNEL_PREFIX": prefix, "CACHE_PREFIX": prefix, "RELEASE": FIRST,
            "ROBOT_DELAY": "0.2", "DETACH": "1", "BACKUP_DIR": str(run_dir / "backups"),
        }
        try:
            _script("production.sh", env)
            yield f"http://127.0.0.1:{proxy_port}", env, run_dir
        finally:
            subprocess.run(["bash", "scripts/production.sh", "stop"], cwd=ROOT, env=env,
                           capture_output=True, timeout=120)
            shutil.rmtree(run_dir, ignore_errors=True)


def _get(url: str) -> tuple[int, dict[str, str], str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode(errors="replace")


needs_postgres_and_redis = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres")
    or not os.environ.get("REDIS_URL"),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL",
)


@pytest.mark.scale
@needs_postgres_and_redis
@needs_nginx
def test_production_serves_through_nginx_and_a_rolling_deploy_replaces_every_process(
    production,
):
    proxy, env, run_dir = production
    status, _, home = _get(proxy + "/")
    assert status == 200 and "ABRIR MESA" in home.upper()
    assert _get(proxy + "/readyz")[0] == 200
    assert _get(proxy + "/healthz")[0] == 200
    assert _get(proxy + "/metrics")[0] == 404
    # A hashed static file, from STATIC_ROOT by nginx, cached for good.
    asset = re.search(r'/static/[^"]+\.[0-9a-f]{12}\.css', home).group(0)
    status, headers, _ = _get(proxy + asset)
    assert status == 200 and "immutable" in headers.get("Cache-Control", "")

    before = _pids(run_dir)
    assert set(before) == {"nginx", f"web-{env['PORT']}", f"web-{int(env['PORT']) + 1}",
                           "worker-0"}

    async def scenario() -> None:
        async with aiohttp.ClientSession() as http:
            code, host, guest = await table_in_play(http, proxy, proxy)
            news = News()
            pages = [Page(person, code, news) for person in (host, guest)]
            for page in pages:
                page.open()
            try:
                # The table page's socket, through nginx, greets with the table.
                assert await news.until(lambda: all(p.version >= 0 for p in pages))

                # The rolling deploy, while pages are loaded and moves made through the proxy.
                statuses: Counter[int] = Counter()
                deployed = threading.Event()

                def load_pages() -> None:
                    while not deployed.is_set():
                        statuses[_get(proxy + "/")[0]] += 1
                        time.sleep(0.05)

                loader = threading.Thread(target=load_pages)
                loader.start()
                deploy = asyncio.create_task(asyncio.to_thread(
                    _script, "deploy.sh", {**env, "RELEASE": SECOND}
                ))
                moves: list[int] = []
                while not deploy.done() and len(moves) < 8:
                    player, version, move = await next_move(code, [host, guest])
                    status, body = await play(code, player, version, move)
                    assert status == 200, (status, body[:300])
                    moves.append(version)
                    await asyncio.wait([deploy], timeout=1.5)
                output = await deploy
                deployed.set()
                await asyncio.to_thread(loader.join)
                assert set(statuses) == {200}, statuses
                assert moves, "no move was made during the deploy"

                # Every page was closed by its process's stop (1012), connected again through
                # nginx, once (to a new process: the new release started beside the old one)
                # and caught up with the table.
                _, body, _ = await host.request("GET", f"/mesa/{code}/")
                version = max(int(v) for v in re.findall(r'data-version="(\d+)"', body))
                assert await news.until(lambda: all(p.version >= version for p in pages))
                assert [p.connections for p in pages] == [2, 2]
                # The new release serves, and the host is still seated (one secret key:
                # sessions survive a deploy).
                assert f'data-release="{SECOND}"' in body
                assert re.search(r'data-me="\d+"', body)
                assert "web" in output and "deployed release " + SECOND in output
                # It took a backup before it migrated, and said its name.
                backup = re.search(r"backup before migrating: (\S+)", output).group(1)
                assert Path(backup).parent == run_dir / "backups" and Path(backup).is_file()
            finally:
                for page in pages:
                    await page.close()

    run_async(scenario())

    # The new release on the other ports, the old processes gone, nginx up throughout.
    after = _pids(run_dir)
    port = int(env["PORT"])
    assert set(after) == {"nginx", f"web-{port + 2}", f"web-{port + 3}", "worker-0"}
    assert after["nginx"] == before["nginx"]
    assert after["worker-0"] != before["worker-0"]
    assert not any(_alive(pid) for name, pid in before.items() if name != "nginx")
    assert all(_alive(pid) for pid in after.values())
    assert (run_dir / "web-ports").read_text().strip() == f"{port + 2},{port + 3}"
    for new in (port + 2, port + 3):
        assert _get(f"http://127.0.0.1:{new}/readyz")[0] == 200

    _script("production.sh", env, "stop")
    assert not any(_alive(pid) for pid in [*before.values(), *after.values()])
    assert not list(run_dir.glob("*.pid"))
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", int(env["PROXY_PORT"])), timeout=1).close()


@pytest.mark.scale
@needs_postgres_and_redis
@needs_nginx
def test_a_deploy_whose_new_process_cannot_start_stops_and_leaves_the_site_as_it_was(
    production,
):
    proxy, env, run_dir = production
    before = _pids(run_dir)
    port = int(env["PORT"])
    # Something else holds the first port of the other set: the new release's first process
    # cannot listen there, so it is never ready.
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port + 2))
        squatter.listen()
        done = subprocess.run(
            ["bash", "scripts/deploy.sh"], cwd=ROOT, env={**env, "RELEASE": SECOND},
            capture_output=True, text=True, timeout=180,
        )
    assert done.returncode != 0
    assert "deploy stopped: release " + SECOND + " not started" in done.stderr
    # The old processes serve on, behind the same nginx, on the same ports; the new one is gone.
    assert _pids(run_dir) == before
    assert all(_alive(pid) for pid in before.values())
    assert (run_dir / "web-ports").read_text().strip() == f"{port},{port + 1}"
    assert _get(proxy + "/")[0] == 200
    for old in (port, port + 1):
        assert _get(f"http://127.0.0.1:{old}/readyz")[0] == 200
