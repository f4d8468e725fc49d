"""SHA-256 in plain Python: the same hex digest in CPython and in Brython.

Rooms commit to secret choices with sha256(action + "|" + nonce). A phone that
reaches the app over plain http on the LAN has no secure context, so no
`crypto.subtle`; and `hashlib` would cost a standard-library import in Brython.
Only 32-bit integer arithmetic (masks, shifts, additions), identical in both.
"""

MASK = 0xFFFFFFFF

K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]
H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
HEX = "0123456789abcdef"


def utf8(text):
    """Return the UTF-8 bytes of a str as a list of ints (no codec module needed)."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            out.append(code)
        elif code < 0x800:
            out.append(0xC0 | (code >> 6))
            out.append(0x80 | (code & 0x3F))
        elif code < 0x10000:
            out.append(0xE0 | (code >> 12))
            out.append(0x80 | ((code >> 6) & 0x3F))
            out.append(0x80 | (code & 0x3F))
        else:
            out.append(0xF0 | (code >> 18))
            out.append(0x80 | ((code >> 12) & 0x3F))
            out.append(0x80 | ((code >> 6) & 0x3F))
            out.append(0x80 | (code & 0x3F))
    return out


def digest_bytes(data):
    """Return the SHA-256 digest of a list of byte values as a list of 32 ints.

    Written for Brython: every intermediate value stays below 2**53 (a rotation
    shifts the low bits up after masking them, never a 64-bit value), and the
    rotations are inlined (a function call costs more than the arithmetic).
    """
    message = list(data)
    length = len(message) * 8
    message.append(0x80)
    while len(message) % 64 != 56:
        message.append(0)
    for shift in range(56, -8, -8):
        message.append((length >> shift) & 0xFF)
    h0, h1, h2, h3, h4, h5, h6, h7 = H0[0], H0[1], H0[2], H0[3], H0[4], H0[5], H0[6], H0[7]
    w = [0] * 64
    k = K
    for start in range(0, len(message), 64):
        for i in range(16):
            j = start + 4 * i
            w[i] = message[j] * 16777216 + message[j + 1] * 65536 + message[j + 2] * 256 + message[j + 3]
        for i in range(16, 64):
            x = w[i - 15]
            y = w[i - 2]
            s0 = ((((x & 127) << 25) | (x >> 7)) ^ (((x & 262143) << 14) | (x >> 18)) ^ (x >> 3))
            s1 = ((((y & 131071) << 15) | (y >> 17)) ^ (((y & 524287) << 13) | (y >> 19)) ^ (y >> 10))
            w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & MASK
        a, b, c, d, e, f, g, hh = h0, h1, h2, h3, h4, h5, h6, h7
        for i in range(64):
            s1 = ((((e & 63) << 26) | (e >> 6)) ^ (((e & 2047) << 21) | (e >> 11)) ^ (((e & 33554431) << 7) | (e >> 25)))
            ch = (e & f) ^ ((MASK ^ e) & g)
            t1 = (hh + s1 + ch + k[i] + w[i]) & MASK
            s0 = ((((a & 3) << 30) | (a >> 2)) ^ (((a & 8191) << 19) | (a >> 13)) ^ (((a & 4194303) << 10) | (a >> 22)))
            maj = (a & b) ^ (a & c) ^ (b & c)
            t2 = (s0 + maj) & MASK
            hh = g
            g = f
            f = e
            e = (d + t1) & MASK
            d = c
            c = b
            b = a
            a = (t1 + t2) & MASK
        h0 = (h0 + a) & MASK
        h1 = (h1 + b) & MASK
        h2 = (h2 + c) & MASK
        h3 = (h3 + d) & MASK
        h4 = (h4 + e) & MASK
        h5 = (h5 + f) & MASK
        h6 = (h6 + g) & MASK
        h7 = (h7 + hh) & MASK
    out = []
    for word in [h0, h1, h2, h3, h4, h5, h6, h7]:
        out.append((word >> 24) & 0xFF)
        out.append((word >> 16) & 0xFF)
        out.append((word >> 8) & 0xFF)
        out.append(word & 0xFF)
    return out


def hexdigest(text):
    """Return the SHA-256 of a str (UTF-8) as 64 lowercase hex digits."""
    parts = []
    for byte in digest_bytes(utf8(text)):
        parts.append(HEX[byte >> 4] + HEX[byte & 15])
    return "".join(parts)


def commitment(action, nonce):
    """Return the commitment to a secret choice: sha256(action + "|" + nonce)."""
    return hexdigest(action + "|" + nonce)
