from django.urls import path

from accounts import api

app_name = "accounts_api"

urlpatterns = [
    path("accounts/signup/", api.SignupApi.as_view(), name="signup"),
    path("accounts/login/", api.LoginApi.as_view(), name="login"),
    path("accounts/logout/", api.LogoutApi.as_view(), name="logout"),
    path("accounts/token/", api.TokenApi.as_view(), name="token"),
    path("accounts/email/", api.EmailApi.as_view(), name="email"),
    path("accounts/email/resend/", api.EmailResendApi.as_view(), name="email-resend"),
    path("accounts/email/verify/", api.EmailVerifyApi.as_view(), name="email-verify"),
    path("accounts/password/reset/", api.PasswordResetApi.as_view(), name="password-reset"),
    path(
        "accounts/password/reset/key/",
        api.PasswordResetKeyApi.as_view(),
        name="password-reset-key",
    ),
    path("accounts/password/change/", api.PasswordChangeApi.as_view(), name="password-change"),
    path(
        "accounts/sign-out-everywhere/",
        api.SignOutEverywhereApi.as_view(),
        name="sign-out-everywhere",
    ),
    path("accounts/data/", api.DataExportApi.as_view(), name="data"),
    path("accounts/delete/", api.AccountDeleteApi.as_view(), name="delete"),
    path("me/", api.MeApi.as_view(), name="me"),
]
