from django.urls import path

from chat import views

urlpatterns = [
    path("mesa/<str:code>/chat/", views.message_post, name="chat_post"),
    path("mesa/<str:code>/chat/mirones/", views.spectators_set, name="chat_spectators"),
]
