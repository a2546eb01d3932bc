from django.urls import path

from tables.live.socket import table_socket

websocket_urlpatterns = [
    path("ws/mesa/<str:code>/", table_socket),
]
