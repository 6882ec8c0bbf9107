"""After the deal and the match: records, deal verification (the commitment), replays and
"replay my deal"."""
