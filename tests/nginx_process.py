"""nginx (Debian's package) run as this user, every path of its own in one folder, for the proxy tests."""

import shutil
import subprocess
from pathlib import Path

import pytest

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The main context around a test's http lines: nothing under /var or /etc, one process as this user
# (so it reads the test's own webroot), and an access log that names the upstream of each request.
MAIN_CONFIG = """
daemon off;
master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 512; }}
http {{
    log_format upstreams '$request_uri $upstream_addr $status';
    access_log {dir}/access.log upstreams;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{http}
}}
"""


def write_config(folder, http):
    """Write `folder`/nginx.conf with the http context's lines `http`, check it with `nginx -t`; return its path."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed (Debian: apt-get install nginx; ./scripts/test installs it)")
    config = Path(folder) / "nginx.conf"
    config.write_text(MAIN_CONFIG.format(dir=folder, http=http))
    checked = subprocess.run([NGINX, "-t", "-c", str(config), "-p", str(folder)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    return config


def start(config):
    """Start nginx with `config` (from write_config) in the foreground; end it with end_process."""
    return subprocess.Popen([NGINX, "-c", str(config), "-p", str(Path(config).parent)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
