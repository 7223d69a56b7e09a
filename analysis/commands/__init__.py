"""One module per `gamecheck` subcommand; each has `register(subparsers)`."""
