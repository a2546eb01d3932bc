"""The time tables go by. One function, so that tests can move the clock."""

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
