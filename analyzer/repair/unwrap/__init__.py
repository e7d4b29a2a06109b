"""Un-wrapping: put back together the lines a terminal cut at its width or a mail client broke
at a space, one module per layout (`boxed` for `|` tables, `batch` for tab-separated output,
`fields` for `\\G` output, `documents` for JSON and tree plans; `pieces` for one long line).

The readers call these as they read; this package imports none of its modules, so a paste loads
only the one its layout needs.
"""
