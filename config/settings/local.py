"""Developer machine: DEBUG on, a throwaway secret key, the browsable API."""

from config.settings.base import *  # noqa: F403
from config.settings.base import REST_FRAMEWORK
from config.settings.environment import env, env_bool

DEBUG = env_bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-local-only-never-use-in-production")

REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
