"""kitdemo: a notes JSON API on SQLite (the golden build of the kit's example suite)."""
