"""The console command: ``scriptforge`` and ``python -m scriptforge``."""

from scriptforge.cli import run


def main() -> None:
    run()


if __name__ == "__main__":
    main()
