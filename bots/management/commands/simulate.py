"""``manage.py simulate``: random self-play figures for the engine (see ocholoco.simulate)."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ocholoco import PRESETS
from ocholoco.simulate import simulate


class Command(BaseCommand):
    help = "Plays complete rounds with random legal moves and prints speed and outcome figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rules", choices=list(PRESETS), default="especiales")
        parser.add_argument("--players", type=int, choices=range(2, 9), default=4)
        parser.add_argument("--rounds", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: object, **options: object) -> None:
        rules = PRESETS[options["rules"]]
        if not rules.min_players <= options["players"] <= rules.max_players:
            raise CommandError(
                f"{rules.label}: se juega de {rules.min_players} a {rules.max_players}"
            )
        report = simulate(
            options["rules"], options["players"], options["rounds"], seed=options["seed"]
        )
        self.stdout.write("\n".join(report.lines()))
