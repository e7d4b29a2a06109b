from django.apps import AppConfig


class AnalyzerConfig(AppConfig):
    name = "analyzer.web"
    label = "analyzer"
    verbose_name = "EXPLAIN analyzer"
