"""Django's makemessages, also finding the strings marked with `_lazy` (the project's name for
`gettext_lazy` in modules that mark many: `from django.utils.translation import gettext_lazy
as _lazy`), which xgettext does not know by itself."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_lazy"]
