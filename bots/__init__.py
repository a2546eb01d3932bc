"""Robot players. The table asks `choose` for a robot's move; it sees only the robot's view."""

from bots.choose import choose

__all__ = ["choose"]
