"""Work off the event loop: agent decisions and analyses in processes, store writes in a thread."""
