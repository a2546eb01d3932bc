from django.urls import path

from tables.web import deck, error_pages, history, home, invitation, language, table

urlpatterns = [
    path("", home.home, name="home"),
    path("abrir/", home.table_open, name="table_open"),
    path("mis-mesas/", home.my_tables, name="my_tables"),
    path("reglas/", home.rules_page, name="rules"),
    path("sw.js", home.service_worker, name="service_worker"),
    path("manifest.webmanifest", home.manifest, name="manifest"),
    path("baraja/", deck.deck_choose, name="deck_choose"),
    path("idioma/", language.language_choose, name="language_choose"),
    path("csrf/", error_pages.csrf_renew, name="csrf_renew"),
    path("volver/<str:secret>/", table.seat_return, name="seat_return"),
    path("mesa/<str:code>/", table.table_page, name="table"),
    path("mesa/<str:code>/sentarse/", table.seat_claim, name="seat_claim"),
    path("mesa/<str:code>/qr.svg", invitation.invitation_qr, name="invitation_qr"),
    path(
        "mesa/<str:code>/vista/<str:key>.png", invitation.preview_image,
        name="preview_image",
    ),
    path("mesa/<str:code>/robot/", table.robot_add, name="robot_add"),
    path("mesa/<str:code>/robot/quitar/", table.robot_remove, name="robot_remove"),
    path("mesa/<str:code>/empezar/", table.match_start, name="match_start"),
    path("mesa/<str:code>/jugar/", table.move_play, name="move_play"),
    path("mesa/<str:code>/siguiente/", table.round_next, name="round_next"),
    path("mesa/<str:code>/revancha/", table.match_rematch, name="match_rematch"),
    path("mesa/<str:code>/abandonar/", table.seat_abandon, name="seat_abandon"),
    path("mesa/<str:code>/enlace/", table.link_renew, name="link_renew"),
    path("mesa/<str:code>/resumen/", history.table_away, name="table_away"),
    path("mesa/<str:code>/registro/", history.table_log, name="table_log"),
    path("mesa/<str:code>/lineas/", history.table_log_since, name="table_log_since"),
    path("mesa/<str:code>/historial/", history.table_history_page, name="table_history"),
    path(
        "mesa/<str:code>/partida/<int:number>.json", history.match_record_download,
        name="match_record",
    ),
    path(
        "mesa/<str:code>/partida/<int:number>.txt", history.match_transcript_download,
        name="match_transcript",
    ),
    path("mesa/<str:code>/ronda/<int:round_id>/", history.round_replay_page, name="round_replay"),
    path(
        "mesa/<str:code>/ronda/<int:round_id>/justo/", history.round_fairness_page,
        name="round_fairness",
    ),
    path("mesa/<str:code>/avisos/", table.push_subscribe, name="push_subscribe"),
    path("mesa/<str:code>/tiempo/", table.turn_limit_set, name="turn_limit_set"),
    path("mesa/<str:code>/volver-a-jugar/", table.seat_come_back, name="seat_come_back"),
]
