"""The room relay's protocol constants, shared by the server and the browser (docs/rooms.md).

Pure Python without imports: it ships to the browser too.
"""

PROTOCOL_VERSION = 1

# No 0/O, 1/I/L, U/V pairs that people mistake for each other when typing from a TV.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
CODE_LENGTH = 6

# A socket closed with this code was taken over by another socket with the same token.
REPLACED_CLOSE = 4000


def normalize_code(text):
    """Return a typed room code in canonical form: upper case, without spaces or dashes."""
    # A list, not a generator: Brython pays for a generator's StopIteration.
    return "".join([ch for ch in (text or "").upper() if ch not in " -"])
