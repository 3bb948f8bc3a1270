"""Write-path wing: typed items, the per-call write context, routing, dispatch, notes and proposals."""
