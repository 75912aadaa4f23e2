from scriptforge.cli import main

main(prog_name="scriptforge")
