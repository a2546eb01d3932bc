from django.contrib import admin
from django.urls import include, path

from config.i18n import script_catalog
from tables.web.rate_limits import per_address

urlpatterns = [
    # The admin's sign-in, with a limit on attempts per address (before the admin's own URL).
    path("admin/login/", per_address("admin_login")(admin.site.login), name="admin_login"),
    path("admin/", admin.site.urls),
    # The scripts' words in each language (Django's JavaScript catalog; config/i18n.py).
    path("jsi18n/<str:language>/", script_catalog, name="script_catalog"),
    path("", include("tables.urls")),
    path("", include("chat.urls")),
]
