"""``python -m commitdigest``: the command line, as the ``commitdigest`` script runs it."""

from commitdigest.cli import script

if __name__ == "__main__":
    script()
