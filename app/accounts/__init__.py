"""People: guests, accounts, sessions and tokens (service), their JSON and HTML routes,
and the request guard (body size, cross-site writes, rate limits) that needs them."""
