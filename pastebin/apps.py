from django.apps import AppConfig


class PastebinConfig(AppConfig):
    name = "pastebin"
    verbose_name = "Saved explains"
