"""Who may do what: CSRF, hosts and Origin, seat cookies, proxies, and the limits per client."""
