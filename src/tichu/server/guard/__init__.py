"""The server's protections: origins and headers, limits, proxies, memory, a bounded exit."""
