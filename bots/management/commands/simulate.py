"""``manage.py simulate``: random self-play figures for the engine (see ocholoco.simulate)."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ocholoco import PRESETS
from ocholoco.simulate import SimulationReport, simulate
from tables.audiences.wording import rules_name


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
                f"{rules_name(rules)}: se juega de {rules.min_players} a {rules.max_players}"
            )
        report = simulate(
            options["rules"], options["players"], options["rounds"], seed=options["seed"]
        )
        self.stdout.write("\n".join(_lines(report)))


def _lines(report: SimulationReport) -> list[str]:
    return [
        f"{report.rules}, {report.players} jugadores: {report.rounds} rondas en"
        f" {report.seconds:.2f} s",
        f"  {report.rounds_per_second:,.0f} rondas/s, {report.moves_per_second:,.0f} jugadas/s, "
        f"{report.moves_per_round:.1f} jugadas por ronda",
        f"  mesa bloqueada: {report.blocked_share:.1%}",
        "  rondas ganadas por lugar: "
        + ", ".join(f"{seat}: {n}" for seat, n in enumerate(report.wins)),
    ]
