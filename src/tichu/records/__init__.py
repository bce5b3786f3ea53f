"""Game records (records.md): writing, reading and replay through the rules, and the
import of Brettspielwelt logs."""
