"""Repair: undo what terminals, mail clients, chats, editors and loggers did to a paste.

`cleanup.clean(text)` runs the line repairs (prompts, quoting, wraps, numbering, status lines) and
reports each one; `decorations` decodes whole-paste encodings and per-line prefixes, `unwrap` puts
hard-wrapped lines back together (one module per layout, called by the readers), and `textwidth`
measures text as a terminal shows it.
"""
