"""`gamecheck report`: per game a Markdown report with CSV tables and PNG plots, and an index.

gather runs the analyses into plain values, tables turns them into DataFrames, markdown and
plots render them, index writes README.md across games, build writes it all atomically.
"""
