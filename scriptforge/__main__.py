from scriptforge.cli import run

run()
