"""Writes nginx's configuration for this machine from the template deploy/nginx.conf.

    python3 scripts/nginx_conf.py --web-ports 8001,8002,8003 --proxy-port 8000 \
        --run-dir var/run --static-root staticfiles [--proxy-host 127.0.0.1] \
        [--out FILE]

The template's names between @ signs are replaced (every one must be); the result goes to
--out, or to stdout. scripts/production.sh and scripts/deploy.sh call it
(scripts/production-env.sh, `nginx_config`). Only the standard library: it runs before the
virtual environment exists.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf"


def render(
    template: str, *, web_ports: list[int], proxy_host: str, proxy_port: int, run_dir: Path,
    static_root: Path,
) -> str:
    """The template with its names between @ signs filled in; one upstream line a process."""
    servers = "\n".join(
        f"        server 127.0.0.1:{port} max_fails=0;"
        for port in web_ports
    )
    values = {
        "UPSTREAM_SERVERS": servers,
        "PROXY_HOST": proxy_host,
        "PROXY_PORT": str(proxy_port),
        "RUN_DIR": str(run_dir.resolve()),
        "STATIC_ROOT": str(static_root.resolve()),
    }
    for name, value in values.items():
        template = template.replace(f"@{name}@", value)
    left = re.findall(r"@[A-Z_]+@", template)
    if left:
        raise SystemExit(f"{TEMPLATE}: nothing fills in {', '.join(sorted(set(left)))}")
    return template


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web-ports", required=True, help="comma-separated: 8001,8002")
    parser.add_argument("--proxy-host", default="127.0.0.1")
    parser.add_argument("--proxy-port", type=int, required=True)
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--static-root", type=Path, required=True)
    parser.add_argument("--out", type=Path, help="the file to write (default: stdout)")
    args = parser.parse_args()
    ports = [int(port) for port in args.web_ports.split(",") if port.strip()]
    if not ports:
        parser.error("--web-ports names no port")
    text = render(
        TEMPLATE.read_text(), web_ports=ports, proxy_host=args.proxy_host,
        proxy_port=args.proxy_port, run_dir=args.run_dir, static_root=args.static_root,
    )
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
