"""The site's HTML plumbing shared by every feature: the one Jinja environment and form
answers (templating), languages (i18n), card and option names (cards), CSRF and the
security headers. Knows no feature: features import it, never the reverse."""
