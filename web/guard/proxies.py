"""Believe X-Forwarded-For and -Proto only from the configured proxies (FICHAS_PROXY_ADDRESSES)."""

from __future__ import annotations

import ipaddress

from werkzeug.middleware.proxy_fix import ProxyFix

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
             "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED")


def networks(addresses: list[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Addresses or networks (`10.0.0.5`, `10.0.0.0/24`, `::1`), or a ValueError that names the bad one."""
    found = []
    for address in addresses:
        try:
            found.append(ipaddress.ip_network(address, strict=False))
        except ValueError:
            raise ValueError(f"FICHAS_PROXY_ADDRESSES: {address!r} is not an address or a network") from None
    return tuple(found)


class TrustedProxies:
    """WSGI middleware: ProxyFix for requests from the proxies; from anyone else the headers are dropped.

    A client that reaches a shard directly (around nginx) then cannot choose its own address,
    which the per-client limits count by, nor claim https.
    """

    def __init__(self, app, proxies: int, addresses: list[str]):
        self.direct = app
        self.proxied = ProxyFix(app, x_for=proxies, x_proto=proxies, x_host=0, x_port=0, x_prefix=0)
        self.networks = networks(addresses)

    def __call__(self, environ, start_response):
        if self.networks and not self._from_proxy(environ.get("REMOTE_ADDR", "")):
            for name in FORWARDED:
                environ.pop(name, None)
            return self.direct(environ, start_response)
        return self.proxied(environ, start_response)

    def _from_proxy(self, address: str) -> bool:
        try:
            peer = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:  # a unix socket, or no address at all: not a proxy we know
            return False
        peer = getattr(peer, "ipv4_mapped", None) or peer  # ::ffff:10.0.0.5 is 10.0.0.5
        return any(peer in network for network in self.networks)
