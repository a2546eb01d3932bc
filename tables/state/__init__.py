"""The table's state and storage: finding a table, reading it once, its seats' secrets,
its clock."""
