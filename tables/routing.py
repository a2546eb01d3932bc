from django.urls import path

from tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/mesa/<str:code>/", TableConsumer.as_asgi()),
]
