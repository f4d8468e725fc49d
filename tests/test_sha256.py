"""spieleabend.sha256 (the rooms' commitments) gives hashlib's digests; the browser's is checked against
the same vectors in e2e/test_engines_in_browser.py."""

import hashlib

from hypothesis import given, settings, strategies as st

from spieleabend.sha256 import commitment, hexdigest
from spieleabend.testing.vectors import SHA256_VECTORS

def test_known_vectors():
    for text, digest in SHA256_VECTORS.items():
        assert hexdigest(text) == digest


def test_every_length_around_the_block_edges():  # 64-byte blocks, the 55/56-byte padding edge
    for length in range(0, 200):
        text = "x" * length
        assert hexdigest(text) == hashlib.sha256(text.encode()).hexdigest(), length


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=150))
def test_any_text_is_hashed_as_its_utf8_bytes(text):
    assert hexdigest(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_commitment_is_action_bar_nonce():
    assert commitment("play 7 risk", "00ff") == hashlib.sha256(b"play 7 risk|00ff").hexdigest()
    assert commitment("play 7", "a") != commitment("play 7 risk", "a")
