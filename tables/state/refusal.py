"""The refusal every table service raises: a request the table will not honour, told in
Spanish (the transaction rolls back, so nothing changes). Error pages are
`tables.web.error_pages`."""


class TableError(Exception):
    """A request the table refuses; the message is for the player, in Spanish. `reason` says
    why in a word for the metrics (`tables.metrics.REFUSAL_REASONS`), set where the main
    refusals are raised (a stale version, not your turn, an illegal move); "other" otherwise."""

    def __init__(self, message: str, reason: str = "other") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
