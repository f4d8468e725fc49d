"""A localStorage stand-in for running the storage module in CPython."""

import json


class FakeLocalStorage:
    """Dict-backed getItem/setItem/removeItem/key/length, with an optional quota in characters."""

    def __init__(self, items=None, quota=None):
        self.items = dict(items or {})
        self.quota = quota

    @property
    def length(self):
        return len(self.items)

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        value = str(value)
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise RuntimeError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key):
        self.items.pop(key, None)

    def key(self, index):
        keys = sorted(self.items)
        return keys[index] if 0 <= index < len(keys) else None


class Clock:
    """A clock in milliseconds that moves only when told."""

    def __init__(self, now=1_700_000_000_000):
        self.now = now

    def __call__(self):
        return self.now


JSON_CODEC = json
