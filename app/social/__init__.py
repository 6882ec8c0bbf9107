"""Friends and presence (issue 18 §3, §5): follows, who is online now and at which table,
hiding one's online status (docs/social.md)."""
