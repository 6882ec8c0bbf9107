"""Chat at the table (issue 18 §2) and blocking (§5): messages, reactions, moderation.

A feature package: it imports rooms, accounts, realtime and core; nothing imports it but
``app.main``, which calls ``app.chat.wiring.install`` (hooks) and lists its routers.
See docs/chat.md.
"""
