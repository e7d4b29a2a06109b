"""System checks that refuse unsafe production settings."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def check_secret_key(app_configs, **kwargs):
    """`manage.py check --deploy` fails while the development SECRET_KEY is in use."""
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        return [
            Error(
                "SECRET_KEY is the development key.",
                hint="Set SECRET_KEY in the environment (for example: python -c 'import secrets; print(secrets.token_urlsafe(50))').",
                id="config.E001",
            )
        ]
    return []
