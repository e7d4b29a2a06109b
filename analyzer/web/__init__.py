"""The Django side of the analyzer: the analyze API, the preview and glossary pages, their form
and template tags. The only part of `analyzer` that may import Django.
"""
