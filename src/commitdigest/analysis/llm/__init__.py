"""The LLM analyser: budgeted diffs, an OpenAI-compatible client, validated output."""
