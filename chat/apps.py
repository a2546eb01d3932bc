from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from chat.publish import events_frame_part, greeting_log, greeting_log_release
        from chat.services import table_change_record
        from chat.views import chat_column
        from tables.plug import (
            PagePart,
            frame_part_register,
            greeting_part_register,
            page_part_register,
            recorder_register,
        )

        recorder_register(table_change_record)
        frame_part_register(events_frame_part)
        page_part_register(PagePart("chat", "chat/column.html", chat_column))
        greeting_part_register(greeting_log, release=greeting_log_release)
