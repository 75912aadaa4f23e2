"""The console command: ``scriptforge`` and ``python -m scriptforge`` (start-up made cheaper
by scriptforge.io.startup, then the CLI)."""


def main() -> None:
    # deferred: start-up time (what startup changes must be in place before the CLI's imports)
    from scriptforge.io import startup
    startup.start()
    # deferred: start-up time
    from scriptforge.cli import run

    run()


if __name__ == "__main__":
    main()
