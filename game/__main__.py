"""Command line: `python -m game simulate …` prints one match record per line."""

from __future__ import annotations

import argparse
import random
import sys

from .errors import GameError
from .record import dumps, export_match
from .simulate import play_match
from .variants import DEFAULT_VARIANT, VARIANTS


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the command."""
    parser = argparse.ArgumentParser(prog="python -m game", description="Fichas dominoes engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play whole matches with random legal moves")
    sim.add_argument("--variant", choices=list(VARIANTS), default=DEFAULT_VARIANT)
    sim.add_argument("--seats", type=int, help="default: the variant's usual seat count")
    sim.add_argument("--target", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--matches", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    seats = VARIANTS[args.variant].default_seats if args.seats is None else args.seats
    try:
        for _ in range(args.matches):
            match = play_match(args.variant, seats, args.target, rng)
            sys.stdout.write(dumps(export_match(match)) + "\n")
    except GameError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
