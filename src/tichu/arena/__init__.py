"""The Arena: agent-vs-agent games on all cores, with statistics and records."""
