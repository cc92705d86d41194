"""Plumbing every room uses: the user's files read within limits and written safely (``files``), JSON for
protocol messages (``jsonio``), YAML the kit is handed read within limits (``yamlsafe``)."""
