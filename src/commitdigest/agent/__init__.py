"""commitdigest for coding agents: the report archive, read-only, over MCP (``commitdigest
mcp``). Imported only by that command."""
