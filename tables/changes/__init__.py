"""Every change to a table (the services), the unit of work they share, what follows a change, and
the task workers."""
