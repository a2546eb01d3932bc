"""Backups of the database, and putting one back: `manage.py backup` and `manage.py restore`
(docs/operating.md, "Backups"). The copy is made by each engine's own tool (`copies`), kept with
a manifest in BACKUP_DIR under a retention rule (`folder`); `services` is the whole of a backup
and of a restore."""
