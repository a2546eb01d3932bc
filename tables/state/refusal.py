"""The refusal every table service raises: a request the table will not honour, told in
Spanish (the transaction rolls back, so nothing changes). Error pages are
`tables.web.error_pages`."""


class TableError(Exception):
    """A request the table refuses; the message is for the player, in Spanish."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
