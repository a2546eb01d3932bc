from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from chat.publish import events_frame_part
        from chat.services import table_change_record
        from tables.dispatch import frame_part_register, recorder_register

        recorder_register(table_change_record)
        frame_part_register(events_frame_part)
