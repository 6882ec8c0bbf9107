"""What every layer shares and no feature owns: settings, the database, the service errors,
and the typed extension points (hooks) through which one feature answers another's
questions. Imports no feature (checked by import-linter)."""
