from django.urls import path

from accounts import api

app_name = "accounts_api"

urlpatterns = [
    path("accounts/signup/", api.SignupApi.as_view(), name="signup"),
    path("accounts/login/", api.LoginApi.as_view(), name="login"),
    path("accounts/logout/", api.LogoutApi.as_view(), name="logout"),
    path("accounts/token/", api.TokenApi.as_view(), name="token"),
    path("me/", api.MeApi.as_view(), name="me"),
]
