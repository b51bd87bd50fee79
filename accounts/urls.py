"""Account pages under /accounts/. These come first; django-allauth's own pages (password
change and reset, e-mail, the verification link) follow from ``allauth.urls`` in
config/urls.py, in the site's templates (templates/account/, templates/allauth/)."""

from django.urls import path

from accounts import signout, views

app_name = "accounts"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    # POST only (a GET answers 405), as before allauth.
    path("logout/", signout.LogoutView.as_view(), name="logout"),
    path("signup/", views.SignupView.as_view(), name="signup"),
    # allauth's e-mail page (its name, account_email, still points here: the same path)
    path("email/", views.EmailView.as_view(), name="email"),
    path("settings/", views.settings_page, name="settings"),
    path(
        "settings/sign-out-everywhere/",
        views.sign_out_everywhere,
        name="sign_out_everywhere",
    ),
    path("settings/data/", views.download_data, name="download_data"),
    path("settings/delete/", views.delete_account, name="delete"),
]
