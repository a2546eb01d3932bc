from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = "Robots"

    def ready(self) -> None:
        from bots.tasks import pending_turns_enqueue, turn_schedule
        from tables.plug import recorder_register, startup_register

        recorder_register(turn_schedule)
        startup_register(pending_turns_enqueue)
