"""Refuse `make serve` with the development SECRET_KEY, unless LOCAL_TRIAL=1 says it is a local trial."""

from __future__ import annotations

import os
import sys

from config.settings import DEV_SECRET_KEY, SECRET_KEY, env_bool


def main() -> int:
    if SECRET_KEY != DEV_SECRET_KEY:
        return 0
    if env_bool("LOCAL_TRIAL"):
        print("serve: LOCAL_TRIAL=1, starting with the development SECRET_KEY (never do this in production).")
        return 0
    print(
        "serve: refusing to start with the development SECRET_KEY.\n"
        "Set SECRET_KEY in the environment, or LOCAL_TRIAL=1 for a local trial.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.exit(main())
