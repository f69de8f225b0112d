"""``python -m pcagent``: the ``pcagent`` command, for a Python whose scripts are not on PATH."""

from pcagent.cli import main

if __name__ == "__main__":
    main()
