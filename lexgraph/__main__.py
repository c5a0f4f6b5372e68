from lexgraph.cli import app

app(prog_name="lexgraph")
