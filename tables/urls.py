from django.urls import path

from tables.web import error_pages, invitation, views

urlpatterns = [
    path("", views.home, name="home"),
    path("abrir/", views.table_open, name="table_open"),
    path("mis-mesas/", views.my_tables, name="my_tables"),
    path("reglas/", views.rules_page, name="rules"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("baraja/", views.deck_choose, name="deck_choose"),
    path("csrf/", error_pages.csrf_renew, name="csrf_renew"),
    path("volver/<str:secret>/", views.seat_return, name="seat_return"),
    path("mesa/<str:code>/", views.table_page, name="table"),
    path("mesa/<str:code>/sentarse/", views.seat_claim, name="seat_claim"),
    path("mesa/<str:code>/qr.svg", invitation.invitation_qr, name="invitation_qr"),
    path(
        "mesa/<str:code>/vista/<str:key>.png", invitation.preview_image,
        name="preview_image",
    ),
    path("mesa/<str:code>/robot/", views.robot_add, name="robot_add"),
    path("mesa/<str:code>/robot/quitar/", views.robot_remove, name="robot_remove"),
    path("mesa/<str:code>/empezar/", views.match_start, name="match_start"),
    path("mesa/<str:code>/jugar/", views.move_play, name="move_play"),
    path("mesa/<str:code>/siguiente/", views.round_next, name="round_next"),
    path("mesa/<str:code>/revancha/", views.match_rematch, name="match_rematch"),
    path("mesa/<str:code>/abandonar/", views.seat_abandon, name="seat_abandon"),
    path("mesa/<str:code>/enlace/", views.link_renew, name="link_renew"),
    path("mesa/<str:code>/resumen/", views.table_away, name="table_away"),
    path("mesa/<str:code>/registro/", views.table_log, name="table_log"),
    path("mesa/<str:code>/lineas/", views.table_log_since, name="table_log_since"),
    path("mesa/<str:code>/historial/", views.table_history_page, name="table_history"),
    path(
        "mesa/<str:code>/partida/<int:number>.json", views.match_record_download,
        name="match_record",
    ),
    path(
        "mesa/<str:code>/partida/<int:number>.txt", views.match_transcript_download,
        name="match_transcript",
    ),
    path("mesa/<str:code>/ronda/<int:round_id>/", views.round_replay_page, name="round_replay"),
    path(
        "mesa/<str:code>/ronda/<int:round_id>/justo/", views.round_fairness_page,
        name="round_fairness",
    ),
    path("mesa/<str:code>/avisos/", views.push_subscribe, name="push_subscribe"),
    path("mesa/<str:code>/tiempo/", views.turn_limit_set, name="turn_limit_set"),
    path("mesa/<str:code>/volver-a-jugar/", views.seat_come_back, name="seat_come_back"),
]
