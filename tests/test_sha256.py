"""The pure-Python SHA-256 used for commit-reveal in rooms agrees with hashlib."""

import hashlib

from hypothesis import given, settings, strategies as st

from spieleabend.sha256 import commitment, digest_bytes, hexdigest, utf8


def test_known_vectors():
    assert hexdigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert hexdigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert hexdigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")


def test_every_length_around_the_block_edges():
    for length in range(0, 200):
        text = "x" * length
        assert hexdigest(text) == hashlib.sha256(text.encode()).hexdigest(), length


@settings(max_examples=300)
@given(st.text(max_size=150))
def test_any_text_matches_hashlib(text):
    assert utf8(text) == list(text.encode("utf-8", "surrogatepass"))
    assert hexdigest(text) == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@given(st.binary(max_size=300))
def test_any_bytes_match_hashlib(data):
    assert bytes(digest_bytes(list(data))) == hashlib.sha256(data).digest()


def test_commitment_is_action_bar_nonce():
    assert commitment("play 7 risk", "00ff") == hashlib.sha256(b"play 7 risk|00ff").hexdigest()
    assert commitment("play 7", "a") != commitment("play 7 risk", "a")
