"""The table's HTML: the lobby and room pages, the presenter that turns a viewer's view
into what the templates draw, per-game panels and score sheets, hints, and the rules
pages."""
