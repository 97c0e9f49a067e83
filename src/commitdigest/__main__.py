"""``python -m commitdigest``: the command line, as the ``commitdigest`` script runs it."""

from commitdigest.cli import main

if __name__ == "__main__":
    main()
