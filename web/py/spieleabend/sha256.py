"""SHA-256 of text as hex digits, for the rooms' commitments: a maintained implementation in each runtime.

Rooms commit to secret choices with sha256(action + "|" + nonce). In CPython (tests, tools) this is
hashlib. In the browser the app's worker has noble-hashes' SHA-256 (web/vendor/noble-hashes, MIT,
vendored unmodified) and ui/dom.py installs it with `use`: Brython's own hashlib evaluates the
unmaintained CryptoJS, and the browser's crypto.subtle is asynchronous and missing where a phone
reaches the app over plain http on the LAN (no secure context).
"""


def hashlib_hexdigest(text):
    """Return the SHA-256 of text's UTF-8 bytes as 64 hex digits, by CPython's hashlib."""
    # __import__, not an import statement: the build lists a module's imports for the browser's bundle,
    # and the browser never runs this (its worker installs its own with `use`).
    return __import__("hashlib").sha256(text.encode("utf-8")).hexdigest()


_implementation = [hashlib_hexdigest]


def use(implementation):
    """Compute every digest with `implementation(text) -> hex` from now on (the browser's worker)."""
    _implementation[0] = implementation


def hexdigest(text):
    """Return the SHA-256 of text's UTF-8 bytes as 64 lower-case hex digits."""
    return _implementation[0](text)


def commitment(action, nonce):
    """Return the commitment to an action: sha256(action + "|" + nonce) in hex."""
    return hexdigest(action + "|" + nonce)
